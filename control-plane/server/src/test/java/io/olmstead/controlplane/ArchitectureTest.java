package io.olmstead.controlplane;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * Which way the control plane's package arrows go (docs/architecture.md draws them): no cycle
 * between top-level packages, the entry point imported by nobody, no dev tooling (the dev
 * module's), and the lower layers (the error type, the roles, configuration, the audit writer, the
 * database helpers) importing no component and no HTTP code.
 */
class ArchitectureTest {
  private static final String ROOT = "io.olmstead.controlplane";
  // the module's own class folder (target/classes): no scan of the test classpath's jars
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .importUrl(Main.class.getProtectionDomain().getCodeSource().getLocation());

  @Test
  void topLevelPackagesFormNoCycle() {
    slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void onlyMainImportsTheCommandLine() {
    noClasses()
        .that()
        .resideOutsideOfPackages(ROOT, ROOT + ".cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(ROOT + ".cli..")
        .check(MAIN);
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

  /**
   * Dev tooling lives in the dev module (control-plane/dev): the server's classes use none of it.
   */
  @Test
  void theServerUsesNoDevModeNoAgentNoEmbeddedDatabaseAndNoMockServer() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            ROOT + ".dev..",
            "io.olmstead.agent..",
            "io.zonky..",
            "io.fabric8.kubernetes.client.server.mock..",
            "io.fabric8.mockwebserver..")
        .check(MAIN);
  }

  @Test
  void theErrorTypeConfigurationAuditWriterAndDatabaseHelpersImportNoComponent() {
    String[] lower = {
      ROOT + ".problem..", ROOT + ".access..", ROOT + ".config..", ROOT + ".audit..", ROOT + ".db.."
    };
    noClasses()
        .that()
        .resideInAnyPackage(lower)
        .should()
        .dependOnClassesThat(resideInAPackage(ROOT + "..").and(not(resideInAnyPackage(lower))))
        .check(MAIN);
  }

  @Test
  void storesNeverImportHttp() {
    noClasses()
        .that()
        .haveSimpleNameEndingWith("Store")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(ROOT + ".http..")
        .check(MAIN);
  }
}
