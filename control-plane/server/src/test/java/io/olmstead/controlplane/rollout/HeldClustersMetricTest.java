package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engine's count of held clusters by reason code, and the gauge olmstead_rollout_clusters_held
 * it feeds.
 */
class HeldClustersMetricTest {
  private static final Instant NOW = Instant.parse("2026-11-27T10:30:00Z");
  private static final Map<String, Map<String, String>> LABELS =
      Map.of(
          "frozen",
          Map.of("region", "eu"),
          "closed",
          Map.of("region", "us"),
          "approval",
          Map.of(),
          "preflight",
          Map.of(),
          "edge",
          Map.of(),
          "moving",
          Map.of(),
          "done",
          Map.of(),
          "away",
          Map.of(),
          "broken",
          Map.of(),
          "awayDone",
          Map.of());
  private static final CalendarGate GATE =
      CalendarGate.of(
          new MaintenanceCalendar(
              List.of(MaintenanceWindow.of("noon", "region=us", "0 12 * * *", 60, "UTC")),
              List.of(
                  Freeze.of("xmas", NOW.minusSeconds(3600), NOW.plusSeconds(3600), "region=eu"))),
          LABELS,
          NOW);

  private static Rollout rollout(Map<String, Step> steps, Map<String, String> messages) {
    List<WavePlanner.PlanCluster> fleet = new ArrayList<>();
    Map<String, String> versions = new HashMap<>();
    steps
        .keySet()
        .forEach(
            c -> {
              fleet.add(new WavePlanner.PlanCluster(c, Map.of()));
              versions.put(c, "1.0.0");
            });
    RolloutStrategy s = RolloutStrategy.fromJson(new JsonObject().put("batchSize", 100));
    Rollout r =
        RolloutMachine.initial("r1", "sub", "2.0.0", s, WavePlanner.plan(fleet, s), versions);
    Map<String, Member> members = new LinkedHashMap<>();
    r.members()
        .forEach(
            (c, m) ->
                members.put(
                    c,
                    new Member(c, m.wave(), steps.get(c), "1.0.0", null, null, messages.get(c))));
    return new Rollout(
        r.id(),
        r.subscription(),
        r.targetVersion(),
        r.strategy(),
        Phase.Progressing,
        r.waves(),
        members,
        0,
        false,
        null);
  }

  private static final Rollout HELD =
      rollout(
          new LinkedHashMap<>(
              Map.of(
                  "frozen",
                  Step.Pending,
                  "closed",
                  Step.Pending,
                  "approval",
                  Step.Progressing,
                  "preflight",
                  Step.Blocked,
                  "edge",
                  Step.Pending,
                  "moving",
                  Step.Progressing,
                  "done",
                  Step.Succeeded,
                  "away",
                  Step.Progressing,
                  "broken",
                  Step.Failed,
                  "awayDone",
                  Step.Succeeded)),
          Map.of(
              "preflight",
              "PreflightFailed: Removed API (x): gone",
              "edge",
              "EdgeAtRisk (risk r-1: etcd 1.0.0 -> 2.0.0 failed on 2 clusters)"));
  private static final Map<String, Report> REPORTS =
      Map.of(
          "approval", Report.connected("1.0.0", "RequiresApproval"),
          "moving", Report.connected("1.0.0", "Installing"),
          "away", Report.disconnected("1.0.0", "Installing"),
          "broken",
              Report.connected("1.0.0", "Failed")
                  .withMessage("InstallCheckFailed: deployment not available"),
          "awayDone", Report.disconnected("2.0.0", "Succeeded"));

  @Test
  void countsEachHeldClusterUnderTheReasonTheApiGivesIt() {
    assertThat(ClusterReason.counts(HELD, REPORTS, GATE))
        .isEqualTo(
            Map.of(
                "Frozen",
                1L,
                "OutsideWindow",
                1L,
                "WaitingForApproval",
                1L,
                "PreflightBlocked",
                1L,
                "EdgeAtRisk",
                1L,
                "Disconnected",
                1L,
                "Failed",
                1L));
    assertThat(ClusterReason.counts(HELD, REPORTS, CalendarGate.alwaysOpen(NOW)))
        .doesNotContainKeys("Frozen", "OutsideWindow");
  }

  @Test
  void countsAFailedOrDisconnectedClusterUnderTheCodeTheApiGivesIt() {
    for (String cluster : List.of("away", "broken", "awayDone", "moving")) {
      Member m = HELD.members().get(cluster);
      ClusterReason.Report report =
          REPORTS.get(cluster).phase() == null
              ? null
              : new ClusterReason.Report(
                  REPORTS.get(cluster).phase(), null, NOW, "2.0.0", null, null);
      ClusterReason.Connection connection =
          new ClusterReason.Connection(
              REPORTS.get(cluster).online() ? "connected" : "disconnected", NOW);
      ClusterReason api =
          ClusterReason.ofMember(m, "2.0.0", report, connection, null, Map.of(), NOW);
      assertThat(ClusterReason.code(m, REPORTS.get(cluster), GATE))
          .as(cluster)
          .isEqualTo(api == null ? null : api.code());
    }
  }

  @Test
  void countsANeverConnectedClusterAsTheApiDoesAndNotAsDisconnected() {
    Member m = HELD.members().get("moving");
    Report never = Report.connected(null, null).withConnection("pending");
    ClusterReason api =
        ClusterReason.ofMember(
            m, "2.0.0", null, new ClusterReason.Connection("pending", null), null, Map.of(), NOW);
    assertThat(api).as("the API's reason").isNull();
    assertThat(ClusterReason.code(m, never, GATE)).as("the gauge's").isNull();
    // one whose agent went away is Disconnected in both
    ClusterReason away =
        ClusterReason.ofMember(
            m,
            "2.0.0",
            null,
            new ClusterReason.Connection("disconnected", null),
            null,
            Map.of(),
            NOW);
    assertThat(ClusterReason.code(m, never.withConnection("disconnected"), GATE))
        .isEqualTo(away.code())
        .isEqualTo("Disconnected");
  }

  @Test
  void theGaugeHasOneSeriesPerCodeAndForgetsARolloutThatEnds() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    RolloutMetrics metrics = new RolloutMetrics(registry);
    for (String code : ClusterReason.CODES) {
      assertThat(registry.get("olmstead.rollout.clusters.held").tag("reason", code).gauge().value())
          .isZero();
    }
    metrics.observed(HELD, ClusterReason.counts(HELD, REPORTS, GATE));
    assertThat(
            registry.get("olmstead.rollout.clusters.held").tag("reason", "Frozen").gauge().value())
        .isEqualTo(1);
    assertThat(
            registry.get("olmstead.rollout.clusters.held").tag("reason", "Failed").gauge().value())
        .isEqualTo(1);
    assertThat(
            registry
                .get("olmstead.rollout.clusters.held")
                .tag("reason", "Disconnected")
                .gauge()
                .value())
        .isEqualTo(1);
    assertThat(
            registry
                .get("olmstead.rollout.clusters.held")
                .tag("reason", "BehindPolicy")
                .gauge()
                .value())
        .isZero();
    Rollout ended =
        new Rollout(
            HELD.id(),
            HELD.subscription(),
            HELD.targetVersion(),
            HELD.strategy(),
            Phase.Aborted,
            HELD.waves(),
            HELD.members(),
            0,
            false,
            null);
    metrics.observed(ended, Map.of());
    assertThat(
            registry.get("olmstead.rollout.clusters.held").tag("reason", "Frozen").gauge().value())
        .isZero();
  }
}
