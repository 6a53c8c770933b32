package io.olmstead.olmcore;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Which way olm-core's package arrows go (docs/architecture.md): no cycle; the library knows no agent or server. */
class ArchitectureTest {
  private static final String ROOT = "io.olmstead.olmcore";
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages(ROOT);

  @Test
  void topLevelPackagesFormNoCycle() {
    slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void theLibraryImportsNeitherTheAgentNorTheControlPlane() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("io.olmstead.agent..", "io.olmstead.controlplane..").check(MAIN);
  }

  @Test
  void theCatalogModelImportsNoDecisionPackage() {
    noClasses().that().resideInAPackage(ROOT + ".fbc..")
        .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".resolver..", ROOT + ".installplan..",
            ROOT + ".lifecycle..", ROOT + ".maturity..")
        .check(MAIN);
  }
}
