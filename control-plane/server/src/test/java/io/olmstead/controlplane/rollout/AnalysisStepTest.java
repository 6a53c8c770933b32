package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.analysis.AnalysisVerdicts.Status;
import io.olmstead.controlplane.analysis.AnalysisVerdicts.Tally;
import io.olmstead.controlplane.rollout.AnalysisView.Entry;
import io.olmstead.controlplane.rollout.AnalysisView.Key;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rollout step with analysis checks: a soaking wave completes only once its checks passed; a
 * failure acts.
 */
class AnalysisStepTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String QUERY = "canary_errors{cluster=\\\"$cluster\\\"}";
  private final Map<String, Report> reports = new HashMap<>();

  private Rollout soakingCanary(String onFailure, String maxFailures) {
    List<WavePlanner.PlanCluster> fleet = new ArrayList<>();
    Map<String, String> versions = new HashMap<>();
    for (String c : List.of("c0", "c1", "c2")) {
      fleet.add(new WavePlanner.PlanCluster(c, Map.of()));
      versions.put(c, "1.0.0");
      reports.put(c, Report.connected("1.0.0", "Succeeded"));
    }
    RolloutStrategy s =
        RolloutStrategy.fromJson(
            new JsonObject(
                "{\"canary\":{\"count\":1},\"soakSeconds\":10,"
                    + "\"maxFailures\":"
                    + maxFailures
                    + ",\"analysis\":[{\"name\":\"errors\",\"query\":\""
                    + QUERY
                    + "\","
                    + "\"successIf\":\"< 0.01\",\"intervalSeconds\":5,\"count\":2,\"onFailure\":\""
                    + onFailure
                    + "\"}]}"));
    Rollout r =
        RolloutMachine.initial("r1", "sub", "2.0.0", s, WavePlanner.plan(fleet, s), versions);
    r = RolloutMachine.step(r, reports, T0).rollout();
    reports.put("c0", Report.connected("2.0.0", "Succeeded"));
    r = RolloutMachine.step(r, reports, T0.plusSeconds(1)).rollout();
    assertThat(r.waves().get(0).state()).isEqualTo(WaveState.Soaking);
    return r;
  }

  private static AnalysisView view(Rollout r, Status status, Tally tally, Double value) {
    return new AnalysisView(
        r.strategy().analysis(),
        Map.of(
            new Key(0, "errors", "c0"),
            new Entry(
                status,
                tally,
                value,
                "does not meet < 0.01",
                "canary_errors{cluster=\"c0\"}",
                T0.plusSeconds(11))));
  }

  private StepResult step(Rollout r, AnalysisView view, int seconds) {
    return RolloutMachine.step(
        r,
        reports,
        T0.plusSeconds(seconds),
        CalendarGate.alwaysOpen(T0.plusSeconds(seconds)),
        PreflightView.OFF,
        view);
  }

  private static List<String> kinds(StepResult s) {
    return s.transitions().stream().map(Transition::kind).toList();
  }

  @Test
  void aSoakedWaveWaitsForItsChecksThenTheNextOpens() {
    Rollout r = soakingCanary("pause", "0");
    StepResult running = step(r, view(r, Status.RUNNING, new Tally(1, 0, 0), 0.0), 60);
    assertThat(running.rollout().waves().get(0).state()).isEqualTo(WaveState.Soaking);
    assertThat(running.changed()).isFalse();
    StepResult noneYet = step(r, new AnalysisView(r.strategy().analysis(), Map.of()), 60);
    assertThat(noneYet.rollout().waves().get(0).state()).isEqualTo(WaveState.Soaking);

    StepResult passed = step(r, view(r, Status.PASSED, new Tally(2, 0, 0), 0.0), 60);
    assertThat(passed.rollout().waves().get(0).state()).isEqualTo(WaveState.Succeeded);
    assertThat(passed.rollout().waves().get(1).state()).isEqualTo(WaveState.Open);
  }

  @Test
  void aFailedCheckPausesNamingTheQueryTheValueAndTheCluster() {
    Rollout r = soakingCanary("pause", "5");
    StepResult s = step(r, view(r, Status.FAILED, new Tally(0, 1, 0), 0.5), 12);
    assertThat(s.rollout().phase()).isEqualTo(Phase.Paused);
    assertThat(kinds(s)).containsExactly("AnalysisFailed", "Paused");
    Transition failed = s.transitions().get(0);
    assertThat(failed.cluster()).isEqualTo("c0");
    assertThat(failed.wave()).isEqualTo("canary");
    assertThat(failed.message())
        .contains("canary_errors{cluster=\"c0\"}")
        .contains("= 0.5")
        .contains("successIf < 0.01");
    assertThat(s.rollout().waves().get(1).state())
        .as("the next wave stays shut")
        .isEqualTo(WaveState.Pending);
    assertThat(step(s.rollout(), view(r, Status.FAILED, new Tally(0, 1, 0), 0.5), 13).changed())
        .as("stepping again changes nothing")
        .isFalse();
  }

  @Test
  void abortEndsTheRolloutWithItsApprovalsWhereTheyAre() {
    Rollout r = soakingCanary("abort", "5");
    StepResult s = step(r, view(r, Status.FAILED, new Tally(0, 1, 0), 0.5), 12);
    assertThat(s.rollout().phase()).isEqualTo(Phase.Aborted);
    assertThat(s.rollout().members().get("c0").approvedVersion()).isEqualTo("2.0.0");
  }

  @Test
  void budgetFailsTheClusterAndTheFailureBudgetDecides() {
    Rollout within = soakingCanary("budget", "1");
    StepResult s = step(within, view(within, Status.FAILED, new Tally(0, 1, 0), 0.5), 12);
    assertThat(s.rollout().members().get("c0").step()).isEqualTo(Step.Failed);
    assertThat(s.rollout().phase()).isEqualTo(Phase.Progressing);
    assertThat(kinds(s)).startsWith("AnalysisFailed", "ClusterFailed");

    Rollout over = soakingCanary("budget", "0");
    StepResult paused = step(over, view(over, Status.FAILED, new Tally(0, 1, 0), 0.5), 12);
    assertThat(paused.rollout().phase())
        .as("over the budget: the strategy's onFailure (pause)")
        .isEqualTo(Phase.Paused);
  }

  @Test
  void anInconclusiveCheckPausesWhateverItsOnFailure() {
    Rollout r = soakingCanary("budget", "5");
    StepResult s = step(r, view(r, Status.INCONCLUSIVE, new Tally(0, 0, 1), null), 12);
    assertThat(s.rollout().phase()).isEqualTo(Phase.Paused);
    assertThat(kinds(s)).containsExactly("AnalysisInconclusive", "Paused");
    assertThat(s.rollout().members().get("c0").step()).isEqualTo(Step.Succeeded);
  }

  @Test
  void measurementsAreDueEveryIntervalFromTheSoakWhileRunning() {
    Rollout r = soakingCanary("pause", "0");
    Instant soaking = r.waves().get(0).soakingSince();
    assertThat(AnalysisView.due(r, Map.of(), soaking.plusSeconds(4))).isEmpty();
    assertThat(AnalysisView.due(r, Map.of(), soaking.plusSeconds(5)))
        .extracting(d -> d.key().cluster())
        .containsExactly("c0");
    Map<Key, Entry> once =
        Map.of(
            new Key(0, "errors", "c0"),
            new Entry(
                Status.RUNNING, new Tally(1, 0, 0), 0.0, "meets", "q", soaking.plusSeconds(5)));
    assertThat(AnalysisView.due(r, once, soaking.plusSeconds(9))).isEmpty();
    assertThat(AnalysisView.due(r, once, soaking.plusSeconds(10)))
        .singleElement()
        .satisfies(d -> assertThat(d.before()).isEqualTo(new Tally(1, 0, 0)));
    Map<Key, Entry> done =
        Map.of(
            new Key(0, "errors", "c0"),
            new Entry(
                Status.PASSED, new Tally(2, 0, 0), 0.0, "meets", "q", soaking.plusSeconds(10)));
    assertThat(AnalysisView.due(r, done, soaking.plusSeconds(60))).isEmpty();
  }

  @Test
  void checksParseIntoTheStrategyAndNameTheirFields() {
    RolloutStrategy s = soakingCanary("budget", "0").strategy();
    assertThat(RolloutStrategy.fromJson(s.toJson())).isEqualTo(s);
    String[][] cases = {
      {
        "[{\"name\":\"a\",\"query\":\"up\",\"successIf\":\"about 1\"}]",
        "/strategy/analysis/0/successIf"
      },
      {
        "[{\"name\":\"a\",\"query\":\"up\",\"successIf\":\"< 1\"},{\"name\":\"a\",\"query\":\"up\","
            + "\"successIf\":\"< 1\"}]",
        "/strategy/analysis/1/name"
      },
      {
        "[{\"name\":\"a\",\"query\":\"up\",\"successIf\":\"< 1\",\"onFailure\":\"rollback\"}]",
        "/strategy/analysis/0/onFailure"
      },
      {
        "[{\"name\":\"a\",\"query\":\"up\",\"successIf\":\"< 1\",\"count\":0}]",
        "/strategy/analysis/0/count"
      },
      {"[{\"name\":\"a\"}]", "/strategy/analysis/0/query"}
    };
    for (String[] c : cases) {
      assertThatThrownBy(
              () -> RolloutStrategy.fromJson(new JsonObject("{\"analysis\":" + c[0] + "}")))
          .as(c[1])
          .isInstanceOfSatisfying(
              StrategyException.class, e -> assertThat(e.pointer()).isEqualTo(c[1]));
    }
  }

  @Test
  void aRequestsQueriesAreAtMost4096CharactersAndNeverBesideATemplateName() {
    String[][] cases = {
      {
        "[{\"name\":\"a\",\"query\":\"" + "x".repeat(4097) + "\",\"successIf\":\"< 1\"}]",
        "/strategy/analysis/0/query"
      },
      {
        "[{\"name\":\"a\",\"query\":\"up\",\"successIf\":\"< 1\"},{\"name\":\"b\",\"templateName\":\"t\","
            + "\"query\":\"up\"}]",
        "/strategy/analysis/1/query"
      }
    };
    for (String[] c : cases) {
      assertThatThrownBy(
              () -> AnalysisPolicy.checkRequest(new JsonObject("{\"analysis\":" + c[0] + "}")))
          .as(c[1])
          .isInstanceOfSatisfying(
              StrategyException.class, e -> assertThat(e.pointer()).isEqualTo(c[1]));
    }
    AnalysisPolicy.checkRequest(
        new JsonObject(
            "{\"analysis\":[{\"name\":\"a\",\"query\":\""
                + "x".repeat(4096)
                + "\",\"successIf\":\"< 1\"}]}"));
  }
}
