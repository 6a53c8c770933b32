package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.agent.testing.RecordingSink;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvReason;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import io.olmstead.olmcore.lifecycle.UpgradeDecision;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusBoardTest {
  private static final SubscriptionToReconcile SUB =
      SubscriptionToReconcile.of("s", "cat", "pkg", "stable", "ns", null);
  private static final ObservedBundle V1 =
      SubscriptionDeciderTest.observed("1.0.0", CsvPhase.SUCCEEDED);
  private static final CsvStatus OK =
      new CsvStatus(CsvPhase.SUCCEEDED, CsvReason.INSTALL_SUCCESSFUL, "done");

  @Test
  void awaitingApprovalReportsTheBundleThatNeedsApproval() {
    Decision d =
        Decision.hold(
            Decision.Action.AWAIT_APPROVAL,
            V1.bundle(),
            SubscriptionDeciderTest.bundle("1.1.0"),
            SubscriptionStatus.REQUIRES_APPROVAL,
            "approval required to install pkg.v1.1.0");
    SubscriptionStatus s = StatusBoard.status(SUB, V1, null, OK, d, List.of());
    assertThat(s.phase()).isEqualTo("RequiresApproval");
    assertThat(s.targetBundle()).isEqualTo("pkg.v1.1.0");
    assertThat(s.installedVersion()).isEqualTo("1.0.0");
    assertThat(ProtocolMapping.toProtocol(s).conditions())
        .anySatisfy(c -> assertThat(c.message()).isEqualTo("pkg.v1.1.0"));
  }

  @Test
  void aBlockedUpgradeIsPendingWithOlmsReason() {
    UpgradeDecision block = UpgradeDecision.block("migrating");
    Decision d =
        Decision.hold(
            Decision.Action.BLOCKED,
            V1.bundle(),
            SubscriptionDeciderTest.bundle("1.1.0"),
            block.reason(),
            block.message());
    SubscriptionStatus s = StatusBoard.status(SUB, V1, null, OK, d, List.of());
    assertThat(s.phase()).isEqualTo("Pending");
    assertThat(s.reason()).isEqualTo("OperatorConditionNotUpgradeable");
    assertThat(s.message()).isEqualTo("operator is not upgradeable: migrating");
    assertThat(s.targetVersion()).isEqualTo("1.1.0");
    assertThat(s.conditions())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.type()).isEqualTo("Upgradeable");
              assertThat(c.status()).isEqualTo("False");
              assertThat(c.reason()).isEqualTo("OperatorConditionNotUpgradeable");
            });
  }

  @Test
  void aRefusedDowngradeIsFailedWithItsReasonWhileTheInstalledBundleStays() {
    ObservedBundle v11 = SubscriptionDeciderTest.observed("1.1.0", CsvPhase.SUCCEEDED);
    Decision d =
        Decision.hold(
            Decision.Action.DOWNGRADE_REFUSED,
            v11.bundle(),
            SubscriptionDeciderTest.bundle("1.0.0"),
            SubscriptionStatus.DOWNGRADE_REFUSED,
            "downgrade to pkg.v1.0.0 refused: risk of data loss");
    SubscriptionStatus s = StatusBoard.status(SUB, v11, null, OK, d, List.of());
    assertThat(s.phase()).isEqualTo("Failed");
    assertThat(s.reason()).isEqualTo("DowngradeRefused");
    assertThat(s.message()).isEqualTo("downgrade to pkg.v1.0.0 refused: risk of data loss");
    assertThat(s.installedVersion()).isEqualTo("1.1.0");
    assertThat(s.targetVersion()).isEqualTo("1.0.0");
  }

  @Test
  void repeatedIdenticalStatusesAreReportedOnce() {
    RecordingSink sink = new RecordingSink();
    StatusBoard board = new StatusBoard(sink);
    SubscriptionStatus s =
        StatusBoard.status(
            SUB,
            V1,
            null,
            OK,
            Decision.drive(Decision.Action.STEADY, V1.bundle(), null),
            List.of());
    board.publish(s);
    board.publish(s);
    assertThat(sink.history("s")).hasSize(1);
    board.removed("s");
    assertThat(sink.removed()).containsExactly("s");
    assertThat(board.get("s")).isEmpty();
  }
}
