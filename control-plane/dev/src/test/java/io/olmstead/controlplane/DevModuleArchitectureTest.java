package io.olmstead.controlplane;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.olmstead.controlplane.cli.DevCommand;
import org.junit.jupiter.api.Test;

/**
 * The dev module's own arrows: only the {@code dev} command (and its plugin) reaches into package
 * {@code dev}.
 */
class DevModuleArchitectureTest {
  private static final String ROOT = "io.olmstead.controlplane";
  // this module's class folder (target/classes) only: the server's rules are the server's
  // ArchitectureTest
  private static final JavaClasses DEV =
      new ClassFileImporter()
          .importUrl(DevCommand.class.getProtectionDomain().getCodeSource().getLocation());

  @Test
  void onlyTheDevCommandImportsDevMode() {
    noClasses()
        .that()
        .resideOutsideOfPackages(ROOT + ".cli..", ROOT + ".dev..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(ROOT + ".dev..")
        .check(DEV);
  }
}
