package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.rollout.MatrixReasons.Cell;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reason of a fleet-matrix cell: which one wins, and when a cell has none. */
class MatrixReasonsTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final Instant SEEN = NOW.minus(Duration.ofMinutes(7));
  private static final MaintenanceCalendar US_FROZEN = new MaintenanceCalendar(List.of(), List.of(Freeze.of(
      "us-freeze", NOW.minus(Duration.ofHours(1)), NOW.plus(Duration.ofHours(2)), "region=us")));

  private static Cell cell(String status, String installed, String target, String phase) {
    return new Cell("c1", "etcd", status, SEEN, new JsonObject().put("region", "us"), installed, target, phase,
        "Failed".equals(phase) ? "InstallCheckFailed" : null, "Failed".equals(phase) ? "not ready" : null,
        "RequiresApproval".equals(phase) ? "etcd.v0.9.4" : null, SEEN);
  }

  @Test
  void aCellAtItsTargetThatNoRolloutHoldsHasNoReason() {
    assertThat(MatrixReasons.reason(cell("connected", "0.9.4", "0.9.4", "Succeeded"), null, null, NOW)).isNull();
    assertThat(MatrixReasons.reason(cell("disconnected", "0.9.4", null, "Succeeded"), Step.Succeeded, null, NOW))
        .isNull();
  }

  @Test
  void aPendingMemberOfARolloutIsFrozenThoughItsAgentIsAtTheOldTarget() {
    ClusterReason r = MatrixReasons.reason(cell("connected", "0.9.2", "0.9.2", "Succeeded"), Step.Pending, US_FROZEN,
        NOW);
    assertThat(r.code()).isEqualTo("Frozen");
    assertThat(r.message()).isEqualTo("Frozen (freeze us-freeze until 2026-11-27T14:00:00Z)");
  }

  @Test
  void disconnectedComesFirstThenTheRolloutsReasonThenTheAgentsFailure() {
    assertThat(MatrixReasons.reason(cell("disconnected", "0.9.2", "0.9.4", "Failed"), Step.Pending, US_FROZEN, NOW)
        .message()).isEqualTo("Disconnected (since 2026-11-27T11:53:00Z)");
    assertThat(MatrixReasons.reason(cell("connected", "0.9.2", null, "RequiresApproval"), null, null, NOW).message())
        .isEqualTo("WaitingForApproval (bundle etcd.v0.9.4, since 2026-11-27T11:53:00Z)");
    ClusterReason failed = MatrixReasons.reason(cell("connected", "0.9.2", "0.9.4", "Failed"), null, null, NOW);
    assertThat(failed.code()).isEqualTo("Failed");
    assertThat(failed.subject()).isEqualTo("InstallCheckFailed");
    assertThat(failed.message()).isEqualTo("Failed (InstallCheckFailed: not ready)");
  }

  @Test
  void anUpgradeUnderWayHasNoReasonToGive() {
    assertThat(MatrixReasons.reason(cell("connected", "0.9.2", "0.9.4", "Upgrading"), Step.Progressing, null, NOW))
        .isNull();
  }
}
