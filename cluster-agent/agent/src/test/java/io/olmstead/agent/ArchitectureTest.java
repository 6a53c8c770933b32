package io.olmstead.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * Which way the agent's package arrows go (docs/architecture.md): no cycle; the wiring and the
 * simulator on top.
 */
class ArchitectureTest {
  private static final String ROOT = "io.olmstead.agent";
  // the module's own class folder (target/classes): no scan of the test classpath's jars
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .importUrl(Main.class.getProtectionDomain().getCodeSource().getLocation());

  @Test
  void topLevelPackagesFormNoCycle() {
    slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void nothingImportsTheEntryPoint() {
    noClasses()
        .that()
        .resideOutsideOfPackage(ROOT)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(ROOT)
        .check(MAIN);
  }

  @Test
  void theKubernetesHelpersImportNoOtherAgentPackage() {
    noClasses()
        .that()
        .resideInAPackage(ROOT + ".k8s..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            ROOT + ".reconcile..",
            ROOT + ".inventory..",
            ROOT + ".pool..",
            ROOT + ".hollow..",
            ROOT + ".sim..")
        .check(MAIN);
  }
}
