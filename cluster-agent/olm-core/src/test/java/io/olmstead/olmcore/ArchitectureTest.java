package io.olmstead.olmcore;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.olmstead.olmcore.fbc.FbcParser;
import org.junit.jupiter.api.Test;

/**
 * Which way olm-core's package arrows go (docs/architecture.md): no cycle; the library knows no
 * agent or server.
 */
class ArchitectureTest {
  private static final String ROOT = "io.olmstead.olmcore";
  // the module's own class folder (target/classes): no scan of the test classpath's jars
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .importUrl(FbcParser.class.getProtectionDomain().getCodeSource().getLocation());

  @Test
  void topLevelPackagesFormNoCycle() {
    slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void theLibraryImportsNeitherTheAgentNorTheControlPlane() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.olmstead.agent..", "io.olmstead.controlplane..")
        .check(MAIN);
  }

  @Test
  void theCatalogModelImportsNoDecisionPackage() {
    noClasses()
        .that()
        .resideInAPackage(ROOT + ".fbc..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            ROOT + ".resolver..",
            ROOT + ".installplan..",
            ROOT + ".lifecycle..",
            ROOT + ".maturity..")
        .check(MAIN);
  }
}
