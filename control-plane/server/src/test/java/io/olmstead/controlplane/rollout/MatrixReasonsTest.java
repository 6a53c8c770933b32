package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.rollout.MatrixReasons.Cell;
import io.olmstead.controlplane.rollout.MatrixReasons.Membership;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
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
  private static final MaintenanceCalendar US_FROZEN =
      new MaintenanceCalendar(
          List.of(),
          List.of(
              Freeze.of(
                  "us-freeze",
                  NOW.minus(Duration.ofHours(1)),
                  NOW.plus(Duration.ofHours(2)),
                  "region=us")));

  private static Cell cell(String status, String installed, String target, String phase) {
    return new Cell(
        "c1",
        "etcd",
        status,
        SEEN,
        new JsonObject().put("region", "us"),
        installed,
        target,
        phase,
        "Failed".equals(phase) ? "InstallCheckFailed" : null,
        "Failed".equals(phase) ? "not ready" : null,
        "RequiresApproval".equals(phase) ? "etcd.v0.9.4" : null,
        SEEN);
  }

  /** A member of an active rollout to 0.9.4 in {@code step} with the engine's {@code message}. */
  private static Membership member(Step step, String message) {
    return new Membership(
        new Member("c1", 0, step, "0.9.2", null, null, message), "0.9.4", true, true);
  }

  private static Membership member(Step step) {
    return member(step, null);
  }

  @Test
  void aCellAtItsTargetThatNoRolloutHoldsHasNoReason() {
    assertThat(
            MatrixReasons.reason(
                cell("connected", "0.9.4", "0.9.4", "Succeeded"), null, null, "0.9.4", NOW))
        .isNull();
    assertThat(
            MatrixReasons.reason(
                cell("disconnected", "0.9.4", null, "Succeeded"),
                member(Step.Succeeded),
                null,
                "0.9.4",
                NOW))
        .isNull();
    assertThat(
            MatrixReasons.reason(
                cell("connected", "0.9.4", "0.9.4", "Succeeded"), null, null, null, NOW))
        .as("no policy version known")
        .isNull();
  }

  @Test
  void aClusterTheLatestRolloutEndedHoldingKeepsWhatTheEngineHeldItOn() {
    Membership ended =
        new Membership(
            new Member(
                "c1",
                0,
                Step.Blocked,
                "0.9.2",
                null,
                null,
                "PreflightUnavailable: no preflight verdict from the agent within 60s"),
            "0.9.4",
            false,
            true);
    assertThat(
            MatrixReasons.reason(
                    cell("connected", "0.9.2", "0.9.2", "Succeeded"), ended, null, "0.9.4", NOW)
                .message())
        .isEqualTo("PreflightBlocked (no preflight verdict from the agent within 60s)");
    Membership notHeld =
        new Membership(
            new Member("c1", 0, Step.Blocked, "0.9.2", null, null, "upgrade blocked"),
            "0.9.4",
            false,
            true);
    assertThat(
            MatrixReasons.reason(
                    cell("connected", "0.9.2", "0.9.2", "Succeeded"), notHeld, null, "0.9.4", NOW)
                .code())
        .isEqualTo("BehindPolicy");
  }

  @Test
  void aCellSettledBelowItsDeclaredPolicyThatNoRolloutHoldsIsBehindPolicy() {
    ClusterReason behind =
        MatrixReasons.reason(
            cell("connected", "0.9.2", "0.9.2", "Succeeded"), null, null, "0.9.4", NOW);
    assertThat(behind.code()).isEqualTo("BehindPolicy");
    assertThat(behind.subject()).isEqualTo("0.9.4");
    assertThat(behind.message()).isEqualTo("BehindPolicy (runs 0.9.2, policy 0.9.4)");
    assertThat(
            MatrixReasons.reason(
                cell("connected", "0.9.2", "0.9.2", "Succeeded"),
                member(Step.Progressing),
                null,
                "0.9.4",
                NOW))
        .as("a rollout holds it, and is moving it")
        .isNull();
    assertThat(
            MatrixReasons.reason(
                cell("connected", "0.9.2", "0.9.4", "Upgrading"), null, null, "0.9.4", NOW))
        .as("on its way to the policy's version")
        .isNull();
    assertThat(
            MatrixReasons.reason(
                    cell("disconnected", "0.9.2", "0.9.2", "Succeeded"), null, null, "0.9.4", NOW)
                .code())
        .as("another reason explains it")
        .isEqualTo("Disconnected");
    assertThat(
            MatrixReasons.reason(
                cell("connected", "0.9.5", "0.9.5", "Succeeded"), null, null, "0.9.4", NOW))
        .as("ahead of the policy is not behind it")
        .isNull();
  }

  @Test
  void aMemberHeldByItsRolloutGetsTheRolloutsReasonThoughItsAgentIsAtTheOldTarget() {
    ClusterReason edge =
        MatrixReasons.reason(
            cell("connected", "0.9.2", "0.9.2", "Succeeded"),
            member(Step.Pending, "EdgeAtRisk (risk r-1: etcd 0.9.2 -> 0.9.4 failed on 2 clusters)"),
            null,
            "0.9.4",
            NOW);
    assertThat(edge.code()).isEqualTo("EdgeAtRisk");
    assertThat(edge.subject()).isEqualTo("r-1");
    ClusterReason preflight =
        MatrixReasons.reason(
            cell("connected", "0.9.2", "0.9.2", "Succeeded"),
            member(
                Step.Blocked,
                "PreflightFailed: ExistingResourceInvalid (etcdclusters): spec.size is required"),
            null,
            "0.9.4",
            NOW);
    assertThat(preflight.code()).isEqualTo("PreflightBlocked");
    assertThat(preflight.message())
        .isEqualTo(
            "PreflightBlocked (ExistingResourceInvalid (etcdclusters): spec.size is required)");
  }

  @Test
  void
      aConnectedCellHeldOnAnEdgeAtRiskOutsideRolloutsIsEdgeAtRiskAndADisconnectedOneDisconnected() {
    ClusterReason hold =
        ClusterReason.edgeHeld(
            "abcd",
            SEEN,
            "EdgeAtRisk (risk abcd: etcd 0.9.2 -> 0.9.4 failed on 1 "
                + "cluster and succeeded on 0 with matching facts fips=true; accept with POST /api/v1/edge-risks/abcd/accept)");
    ClusterReason r =
        MatrixReasons.reason(
            cell("connected", "0.9.2", "0.9.2", "Succeeded"), null, null, "0.9.4", hold, NOW);
    assertThat(r.code()).isEqualTo("EdgeAtRisk");
    assertThat(r.subject()).isEqualTo("abcd");
    assertThat(r.at()).isEqualTo(SEEN);
    assertThat(r.message()).startsWith("EdgeAtRisk (risk abcd: ");
    // the hold is released only when the cluster is published again: away, it says so first
    ClusterReason away =
        MatrixReasons.reason(
            cell("disconnected", "0.9.2", "0.9.2", "Succeeded"), null, null, "0.9.4", hold, NOW);
    assertThat(away.code()).isEqualTo("Disconnected");
    assertThat(away.at()).isEqualTo(SEEN);
    // an active rollout of the subscription decides for its member
    assertThat(
            MatrixReasons.reason(
                    cell("connected", "0.9.2", "0.9.2", "Succeeded"),
                    member(Step.Pending),
                    US_FROZEN,
                    "0.9.4",
                    hold,
                    NOW)
                .code())
        .isEqualTo("Frozen");
  }

  @Test
  void aPendingMemberOfARolloutIsFrozenThoughItsAgentIsAtTheOldTarget() {
    ClusterReason r =
        MatrixReasons.reason(
            cell("connected", "0.9.2", "0.9.2", "Succeeded"),
            member(Step.Pending),
            US_FROZEN,
            "0.9.4",
            NOW);
    assertThat(r.code()).isEqualTo("Frozen");
    assertThat(r.message()).isEqualTo("Frozen (freeze us-freeze until 2026-11-27T14:00:00Z)");
  }

  @Test
  void disconnectedComesFirstThenTheRolloutsReasonThenTheAgentsFailure() {
    assertThat(
            MatrixReasons.reason(
                    cell("disconnected", "0.9.2", "0.9.4", "Failed"),
                    member(Step.Pending),
                    US_FROZEN,
                    "0.9.4",
                    NOW)
                .message())
        .isEqualTo("Disconnected (since 2026-11-27T11:53:00Z)");
    assertThat(
            MatrixReasons.reason(
                    cell("connected", "0.9.2", null, "RequiresApproval"), null, null, "0.9.4", NOW)
                .message())
        .isEqualTo("WaitingForApproval (bundle etcd.v0.9.4, since 2026-11-27T11:53:00Z)");
    ClusterReason failed =
        MatrixReasons.reason(
            cell("connected", "0.9.2", "0.9.4", "Failed"), null, null, "0.9.4", NOW);
    assertThat(failed.code()).isEqualTo("Failed");
    assertThat(failed.subject()).isEqualTo("InstallCheckFailed");
    assertThat(failed.message()).isEqualTo("Failed (InstallCheckFailed: not ready)");
  }

  @Test
  void anUpgradeUnderWayHasNoReasonToGive() {
    assertThat(
            MatrixReasons.reason(
                cell("connected", "0.9.2", "0.9.4", "Upgrading"),
                member(Step.Progressing),
                null,
                "0.9.4",
                NOW))
        .isNull();
  }
}
