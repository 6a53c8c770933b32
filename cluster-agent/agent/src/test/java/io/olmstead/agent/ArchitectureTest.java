package io.olmstead.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Which way the agent's package arrows go (docs/architecture.md): no cycle; the wiring and the simulator on top. */
class ArchitectureTest {
  private static final String ROOT = "io.olmstead.agent";
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages(ROOT);

  @Test
  void topLevelPackagesFormNoCycle() {
    slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void nothingImportsTheEntryPoint() {
    noClasses().that().resideOutsideOfPackage(ROOT)
        .should().dependOnClassesThat().resideInAPackage(ROOT).check(MAIN);
  }

  @Test
  void theKubernetesHelpersImportNoOtherAgentPackage() {
    noClasses().that().resideInAPackage(ROOT + ".k8s..")
        .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".reconcile..", ROOT + ".inventory..",
            ROOT + ".pool..", ROOT + ".hollow..", ROOT + ".sim..")
        .check(MAIN);
  }
}
