package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.TargetGroup.Kind;
import io.olmstead.controlplane.rollout.TargetGroup.Member;
import io.olmstead.controlplane.rollout.TargetGroup.Row;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The multi-target wave rules as a table: what a cluster of the second target (the consumer) may do
 * given the first target's (the provider's) step on that cluster, and when the provider's wave may
 * succeed.
 */
class TargetGroupTest {
  static Stream<Arguments> gates() {
    return Stream.of(
        Arguments.of(
            Step.Pending,
            null,
            Kind.WAIT,
            "WaitingForProvider: db moves to 1.1.0 on this cluster first"),
        Arguments.of(
            Step.Progressing,
            null,
            Kind.WAIT,
            "WaitingForProvider: db moves to 1.1.0 on this cluster first"),
        Arguments.of(Step.Succeeded, "running 1.1.0", Kind.GO, null),
        Arguments.of(
            Step.Failed,
            "InstallCheckFailed: boom",
            Kind.HOLD,
            "ProviderFailed: db did not reach 1.1.0 on this cluster (Failed: InstallCheckFailed: boom)"),
        Arguments.of(
            Step.StillFailed,
            "still",
            Kind.HOLD,
            "ProviderFailed: db did not reach 1.1.0 on this cluster " + "(StillFailed: still)"),
        Arguments.of(
            Step.Blocked,
            "PreflightFailed: x",
            Kind.HOLD,
            "ProviderFailed: db did not reach 1.1.0 on this "
                + "cluster (Blocked: PreflightFailed: x)"),
        Arguments.of(
            Step.RolledBack,
            null,
            Kind.HOLD,
            "ProviderFailed: db did not reach 1.1.0 on this cluster " + "(RolledBack)"),
        // the provider was itself held by its own provider: the first failure is named
        Arguments.of(
            Step.Blocked,
            "ProviderFailed: base did not reach 2.0.0 on this cluster (Failed)",
            Kind.HOLD,
            "ProviderFailed: base did not reach 2.0.0 on this cluster (Failed)"));
  }

  @ParameterizedTest(name = "provider {0}: consumer {2}")
  @MethodSource("gates")
  void aConsumerMovesOnlyAfterItsProviderSucceededOnTheCluster(
      Step provider, String message, Kind kind, String expected) {
    TargetGroup consumer =
        new TargetGroup(
            1,
            List.of(
                row(0, "db", Phase.Progressing, Map.of("c1", new Member(0, provider, message))),
                row(1, "app", Phase.Progressing, Map.of())));
    TargetGroup.Gate gate = consumer.gate("c1");
    assertThat(gate.kind()).isEqualTo(kind);
    assertThat(gate.message()).isEqualTo(expected);
    if (expected != null) {
      assertThat(TargetGroup.provider(expected))
          .isEqualTo(expected.contains("base") ? "base" : "db");
    }
  }

  @Test
  void theFirstTargetAndClustersNoProviderPlacesOnNeverWait() {
    List<Row> rows =
        List.of(
            row(0, "db", Phase.Progressing, Map.of("c1", new Member(0, Step.Pending, null))),
            row(1, "app", Phase.Progressing, Map.of()));
    assertThat(new TargetGroup(0, rows).gate("c1")).isEqualTo(TargetGroup.Gate.GO);
    assertThat(new TargetGroup(1, rows).gate("c2")).isEqualTo(TargetGroup.Gate.GO);
    assertThat(TargetGroup.NONE.gate("c1")).isEqualTo(TargetGroup.Gate.GO);
  }

  @Test
  void aProviderWaveSucceedsOnlyOnceItsConsumersSettledThere() {
    List<Row> rows =
        List.of(
            row(0, "db", Phase.Progressing, Map.of("c1", new Member(0, Step.Succeeded, null))),
            row(
                1,
                "app",
                Phase.Progressing,
                Map.of(
                    "c1",
                    new Member(0, Step.Progressing, null),
                    "c2",
                    new Member(1, Step.Pending, null))));
    TargetGroup provider = new TargetGroup(0, rows);
    assertThat(provider.laterSettled(0, List.of("c1"))).isFalse();
    // a consumer member in a later wave of its own does not hold the provider's earlier wave
    assertThat(provider.laterSettled(0, List.of("c2"))).isTrue();
    List<Row> settled =
        List.of(
            rows.get(0),
            row(
                1,
                "app",
                Phase.Progressing,
                Map.of("c1", new Member(0, Step.Blocked, "ProviderFailed: db ..."))));
    assertThat(new TargetGroup(0, settled).laterSettled(0, List.of("c1"))).isTrue();
    assertThat(new TargetGroup(1, rows).laterSettled(0, List.of("c1")))
        .as("the last target has no later ones")
        .isTrue();
  }

  @Test
  void aTargetFollowsASiblingThatEndedOrPaused() {
    RolloutModel.Rollout app = consumer(List.of("c0"));
    assertThat(follow(app, Phase.RolledBack).rollout().phase()).isEqualTo(Phase.RolledBack);
    assertThat(follow(app, Phase.Aborted).rollout().phase()).isEqualTo(Phase.Aborted);
    assertThat(follow(app, Phase.Failed).rollout().phase()).isEqualTo(Phase.Aborted);
    assertThat(follow(app, Phase.Paused).rollout().phase()).isEqualTo(Phase.Paused);
    assertThat(follow(app, Phase.Paused).rollout().message())
        .isEqualTo("paused with target db (rollout ro-db, Paused)");
    assertThat(new TargetGroup(1, List.of(row(0, "db", Phase.Progressing, Map.of()))).follow(app))
        .isEmpty();
    assertThat(new TargetGroup(1, List.of(row(0, "db", Phase.Succeeded, Map.of()))).follow(app))
        .isEmpty();
  }

  @Test
  void inAStepTheConsumerMovesWhereItsProviderSucceededAndIsHeldWhereItFailed() {
    RolloutModel.Rollout app = consumer(List.of("c0", "c1", "c2"));
    Map<String, RolloutModel.Report> reports =
        Map.of(
            "c0", RolloutModel.Report.connected("0.2.0", "Succeeded"),
            "c1", RolloutModel.Report.connected("0.2.0", "Succeeded"),
            "c2", RolloutModel.Report.connected("0.2.0", "Succeeded"));
    TargetGroup group =
        new TargetGroup(
            1,
            List.of(
                row(
                    0,
                    "db",
                    Phase.Progressing,
                    Map.of(
                        "c0",
                        new Member(0, Step.Failed, "InstallCheckFailed: boom"),
                        "c1",
                        new Member(0, Step.Succeeded, null),
                        "c2",
                        new Member(0, Step.Progressing, null))),
                row(1, "app", Phase.Progressing, Map.of())));
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    RolloutModel.StepResult step =
        RolloutMachine.step(
            app,
            reports,
            now,
            CalendarGate.alwaysOpen(now),
            PreflightView.OFF,
            AnalysisView.NONE,
            Map.of(),
            group);
    Map<String, RolloutModel.Member> members = step.rollout().members();
    assertThat(members.get("c0").step()).isEqualTo(Step.Blocked);
    assertThat(members.get("c0").approvedVersion()).isNull();
    assertThat(members.get("c0").message()).startsWith("ProviderFailed: db did not reach 1.1.0");
    assertThat(members.get("c1").step()).isEqualTo(Step.Progressing);
    assertThat(members.get("c1").approvedVersion()).isEqualTo("0.3.0");
    assertThat(members.get("c2").step()).isEqualTo(Step.Pending);
    assertThat(members.get("c2").message()).startsWith("WaitingForProvider: db");
    assertThat(step.transitions().stream().map(t -> t.kind() + " " + t.cluster()).toList())
        .contains("ClusterHeld c0", "ClusterApproved c1")
        .doesNotContain("ClusterApproved c0", "ClusterApproved c2");
    // the held cluster is not a failure of the consumer: the budget counts it once, in the provider
    assertThat(step.rollout().failed()).isZero();
    assertThat(ClusterReason.held(members.get("c0")).code()).isEqualTo("ProviderFailed");
    assertThat(ClusterReason.held(members.get("c0")).subject()).isEqualTo("db");
    assertThat(ClusterReason.held(members.get("c2")).code()).isEqualTo("WaitingForProvider");
  }

  @Test
  void wavesArePlannedPerTargetSoAClusterTheProviderLeftOutMayLeadTheConsumer() {
    RolloutStrategy s =
        RolloutStrategy.fromJson(new JsonObject("{\"canary\":{\"count\":1},\"batchSize\":10}"));
    // the db left c1 out (Upgradeable=False there): its waves are planned from c2 and c3, the
    // operator's from all
    List<WavePlanner.PlannedWave> dbWaves = WavePlanner.plan(fleet("c2", "c3"), s);
    List<WavePlanner.PlannedWave> appWaves = WavePlanner.plan(fleet("c1", "c2", "c3"), s);
    assertThat(dbWaves.get(0).clusters()).containsExactly("c2");
    assertThat(appWaves.get(0).clusters()).containsExactly("c1");
    List<Row> rows =
        List.of(
            row(0, "db", Phase.Progressing, members(dbWaves)),
            row(1, "app", Phase.Progressing, members(appWaves)));
    TargetGroup app = new TargetGroup(1, rows);
    // the operator's canary is a cluster the db does not move there: it goes at once, not after the
    // db's canary
    assertThat(app.gate("c1")).isEqualTo(TargetGroup.Gate.GO);
    // on every cluster both move, the operator still waits for the db, whatever wave each target
    // put it in
    assertThat(app.gate("c2").kind()).isEqualTo(Kind.WAIT);
    assertThat(app.gate("c3").kind()).isEqualTo(Kind.WAIT);
    // the db's canary (c2) does not wait for the operator there: c2 is in the operator's second
    // wave
    assertThat(new TargetGroup(0, rows).laterSettled(0, List.of("c2"))).isTrue();
    assertThat(new TargetGroup(0, rows).laterSettled(1, List.of("c3"))).isFalse();
  }

  private static List<WavePlanner.PlanCluster> fleet(String... names) {
    return Stream.of(names).map(n -> new WavePlanner.PlanCluster(n, Map.of())).toList();
  }

  private static Map<String, Member> members(List<WavePlanner.PlannedWave> waves) {
    Map<String, Member> out = new HashMap<>();
    for (int i = 0; i < waves.size(); i++) {
      for (String c : waves.get(i).clusters()) {
        out.put(c, new Member(i, Step.Pending, null));
      }
    }
    return out;
  }

  private static RolloutModel.Rollout consumer(List<String> clusters) {
    List<WavePlanner.PlanCluster> fleet = new ArrayList<>();
    Map<String, String> versions = new HashMap<>();
    for (String c : clusters) {
      fleet.add(new WavePlanner.PlanCluster(c, Map.of()));
      versions.put(c, "0.2.0");
    }
    RolloutStrategy s =
        RolloutStrategy.fromJson(new JsonObject("{\"batchSize\":10,\"maxFailures\":0}"));
    return RolloutMachine.initial(
        "ro-app", "app", "0.3.0", s, WavePlanner.plan(fleet, s), versions);
  }

  private static RolloutModel.StepResult follow(RolloutModel.Rollout r, Phase sibling) {
    return new TargetGroup(1, List.of(row(0, "db", sibling, Map.of()))).follow(r).orElseThrow();
  }

  private static Row row(int index, String subscription, Phase phase, Map<String, Member> members) {
    return new Row(
        index,
        "ro-" + subscription,
        subscription,
        subscription.equals("db") ? "1.1.0" : "0.3.0",
        phase,
        members);
  }
}
