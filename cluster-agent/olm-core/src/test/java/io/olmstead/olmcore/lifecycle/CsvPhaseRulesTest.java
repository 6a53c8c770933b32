package io.olmstead.olmcore.lifecycle;

import static io.olmstead.olmcore.lifecycle.CsvPhase.DELETING;
import static io.olmstead.olmcore.lifecycle.CsvPhase.FAILED;
import static io.olmstead.olmcore.lifecycle.CsvPhase.INSTALLING;
import static io.olmstead.olmcore.lifecycle.CsvPhase.INSTALL_READY;
import static io.olmstead.olmcore.lifecycle.CsvPhase.NONE;
import static io.olmstead.olmcore.lifecycle.CsvPhase.PENDING;
import static io.olmstead.olmcore.lifecycle.CsvPhase.REPLACING;
import static io.olmstead.olmcore.lifecycle.CsvPhase.SUCCEEDED;
import static io.olmstead.olmcore.lifecycle.DeploymentState.available;
import static io.olmstead.olmcore.lifecycle.DeploymentState.deadlineExceeded;
import static io.olmstead.olmcore.lifecycle.DeploymentState.progressing;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CsvPhaseRulesTest {

  private static final UpgradeDecision BLOCKED = UpgradeDecision.block("migrating data");

  static Stream<Arguments> rules() {
    return Stream.of(
        // install path
        Arguments.of(
            "new CSV, requirements missing",
            CsvObservation.in(NONE).withUnmetRequirements("crd foo missing"),
            PENDING,
            "RequirementsNotMet"),
        Arguments.of(
            "new CSV, replaced operator not upgradeable",
            CsvObservation.in(PENDING).withUpgrade(BLOCKED),
            PENDING,
            "OperatorConditionNotUpgradeable"),
        Arguments.of(
            "requirements beat Upgradeable",
            CsvObservation.in(PENDING).withUpgrade(BLOCKED).withUnmetRequirements(""),
            PENDING,
            "RequirementsNotMet"),
        Arguments.of(
            "Upgradeable no longer gates once installing",
            CsvObservation.in(INSTALLING).withUpgrade(BLOCKED).withApplied(progressing("op")),
            INSTALLING,
            "InstallWaiting"),
        Arguments.of(
            "requirements met, nothing applied",
            CsvObservation.in(PENDING),
            INSTALL_READY,
            "AllRequirementsMet"),
        Arguments.of(
            "applied, deployment rolling out",
            CsvObservation.in(INSTALL_READY).withApplied(available("a"), progressing("b")),
            INSTALLING,
            "InstallWaiting"),
        Arguments.of(
            "applied, all deployments available",
            CsvObservation.in(INSTALLING).withApplied(available("a"), available("b")),
            SUCCEEDED,
            "InstallSucceeded"),
        Arguments.of(
            "applied, no deployments at all",
            CsvObservation.in(INSTALLING).withApplied(),
            SUCCEEDED,
            "InstallSucceeded"),
        Arguments.of(
            "deployment past its progress deadline",
            CsvObservation.in(INSTALLING).withApplied(progressing("a"), deadlineExceeded("b")),
            FAILED,
            "InstallCheckFailed"),
        Arguments.of(
            "API server rejected an object",
            CsvObservation.in(INSTALL_READY).withApiRejection("admission webhook denied"),
            FAILED,
            "InstallComponentFailed"),
        // configuration errors in any phase
        Arguments.of(
            "operator group cannot host it",
            CsvObservation.in(SUCCEEDED)
                .withApplied(available("a"))
                .withUnsupportedOperatorGroup("InstallModeType not supported"),
            FAILED,
            "UnsupportedOperatorGroup"),
        Arguments.of(
            "install modes do not fit targets",
            CsvObservation.in(PENDING).withInvalidInstallModes("OwnNamespace not supported"),
            FAILED,
            "InvalidInstallModes"),
        Arguments.of(
            "install strategy unusable",
            CsvObservation.in(PENDING).withInvalidInstallStrategy("unsupported strategy"),
            FAILED,
            "InvalidInstallStrategy"),
        // after success
        Arguments.of(
            "healthy stays succeeded",
            CsvObservation.in(SUCCEEDED).withApplied(available("a")),
            SUCCEEDED,
            "InstallSucceeded"),
        Arguments.of(
            "deployment changed or deleted",
            CsvObservation.in(SUCCEEDED).withObjectsMissing(),
            INSTALL_READY,
            "NeedsReinstall"),
        Arguments.of(
            "deployment became unavailable",
            CsvObservation.in(SUCCEEDED).withApplied(progressing("a")),
            FAILED,
            "ComponentUnhealthy"),
        Arguments.of(
            "requirements lost after success",
            CsvObservation.in(SUCCEEDED)
                .withApplied(available("a"))
                .withUnmetRequirements("crd deleted"),
            FAILED,
            "RequirementsNotMet"),
        // after failure
        Arguments.of(
            "failed and objects gone restarts",
            CsvObservation.in(FAILED).withObjectsMissing(),
            PENDING,
            "NeedsReinstall"),
        Arguments.of(
            "failed deployment recovers",
            CsvObservation.in(FAILED).withApplied(available("a")),
            SUCCEEDED,
            "InstallSucceeded"),
        Arguments.of(
            "failed deployment rolling out again",
            CsvObservation.in(FAILED).withApplied(progressing("a")),
            INSTALLING,
            "InstallWaiting"),
        // replacement
        Arguments.of(
            "being replaced",
            CsvObservation.in(SUCCEEDED)
                .withApplied(available("a"))
                .withReplacedBy("etcd.v0.9.4", false),
            REPLACING,
            "BeingReplaced"),
        Arguments.of(
            "replacement succeeded",
            CsvObservation.in(REPLACING).withReplacedBy("etcd.v0.9.4", true),
            DELETING,
            "Replaced"),
        Arguments.of(
            "replacement beats config errors",
            CsvObservation.in(SUCCEEDED).withInvalidInstallModes("x").withReplacedBy("n", false),
            REPLACING,
            "BeingReplaced"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void decidesPhaseAndReason(
      String name, CsvObservation observation, CsvPhase phase, String reason) {
    CsvStatus status = CsvPhaseRules.next(observation);
    assertThat(status.phase()).isEqualTo(phase);
    assertThat(status.reason().wireName()).isEqualTo(reason);
    assertThat(status.message()).isNotBlank();
  }

  @Test
  void carriesOlmMessages() {
    assertThat(CsvPhaseRules.next(CsvObservation.in(PENDING).withUpgrade(BLOCKED)).message())
        .isEqualTo("operator is not upgradeable: migrating data");
    assertThat(CsvPhaseRules.next(CsvObservation.in(PENDING)).message())
        .isEqualTo("all requirements found, attempting install");
    assertThat(
            CsvPhaseRules.next(CsvObservation.in(SUCCEEDED).withReplacedBy("etcd.v0.9.4", false))
                .message())
        .isEqualTo("being replaced by csv: etcd.v0.9.4");
    assertThat(
            CsvPhaseRules.next(
                    CsvObservation.in(INSTALLING).withApplied(deadlineExceeded("etcd-operator")))
                .message())
        .isEqualTo(
            "install failed: deployment etcd-operator not ready before timeout: "
                + "deployment \"etcd-operator\" exceeded its progress deadline");
    assertThat(
            CsvPhaseRules.next(CsvObservation.in(NONE).withUnmetRequirements("crd foo missing"))
                .message())
        .isEqualTo("one or more requirements couldn't be found: crd foo missing");
  }

  @Test
  void treatsAMissingObservationAsRequirementsUnknown() {
    assertThat(CsvPhaseRules.next(null))
        .isEqualTo(
            new CsvStatus(PENDING, CsvReason.REQUIREMENTS_UNKNOWN, "requirements not yet checked"));
    assertThat(
            CsvPhaseRules.next(CsvObservation.in(INSTALLING).withApplied(available("a"), null))
                .phase())
        .isEqualTo(SUCCEEDED);
  }

  @Test
  void mapsWireNamesBothWays() {
    for (CsvPhase p : CsvPhase.values()) {
      assertThat(CsvPhase.fromWireName(p.wireName())).contains(p);
    }
    for (CsvReason r : CsvReason.values()) {
      assertThat(CsvReason.fromWireName(r.wireName())).contains(r);
    }
    assertThat(CsvPhase.fromWireName("Bogus")).isEmpty();
    assertThat(CsvReason.COMPONENT_FAILED.wireName()).isEqualTo("InstallComponentFailed");
    assertThat(CsvReason.REQUIREMENTS_MET.wireName()).isEqualTo("AllRequirementsMet");
  }
}
