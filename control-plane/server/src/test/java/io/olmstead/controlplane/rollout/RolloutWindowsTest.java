package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
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
 * The rollout step with the fleet calendar: which clusters are approved when, and how the wave
 * clocks run.
 */
class RolloutWindowsTest {
  // Berlin nights 22:00-23:00 local (21:00-22:00Z in winter, 20:00-21:00Z in summer); New York
  // 02:00-03:00 local
  // (07:00-08:00Z in winter); New York frozen all of 16 January
  private static final MaintenanceCalendar CALENDAR =
      new MaintenanceCalendar(
          List.of(
              MaintenanceWindow.of("berlin", "zone=berlin", "0 22 * * *", 60, "Europe/Berlin"),
              MaintenanceWindow.of("ny", "zone=ny", "0 2 * * *", 60, "America/New_York")),
          List.of(
              Freeze.of(
                  "ny-freeze",
                  Instant.parse("2026-01-16T00:00:00Z"),
                  Instant.parse("2026-01-17T00:00:00Z"),
                  "zone=ny")));
  private static final Map<String, Map<String, String>> LABELS =
      Map.of(
          "b1",
          Map.of("zone", "berlin"),
          "b2",
          Map.of("zone", "berlin"),
          "n1",
          Map.of("zone", "ny"),
          "u1",
          Map.of());

  private final Map<String, Report> reports = new HashMap<>();

  private Rollout rollout(String strategy) {
    List<WavePlanner.PlanCluster> fleet = new ArrayList<>();
    Map<String, String> versions = new HashMap<>();
    LABELS.forEach(
        (name, labels) -> {
          fleet.add(new WavePlanner.PlanCluster(name, labels));
          versions.put(name, "1.0.0");
          reports.put(name, Report.connected("1.0.0", "Succeeded"));
        });
    RolloutStrategy s = RolloutStrategy.fromJson(new JsonObject(strategy).put("groupBy", "zone"));
    return RolloutMachine.initial("r1", "sub", "2.0.0", s, WavePlanner.plan(fleet, s), versions);
  }

  private StepResult step(Rollout r, String now) {
    Instant at = Instant.parse(now);
    CalendarGate gate =
        r.strategy().respectsCalendar()
            ? CalendarGate.of(CALENDAR, LABELS, at)
            : CalendarGate.alwaysOpen(at);
    return RolloutMachine.step(r, reports, at, gate);
  }

  private void upgraded(String... clusters) {
    for (String c : clusters) {
      reports.put(c, Report.connected("2.0.0", "Succeeded"));
    }
  }

  private static List<String> approved(Rollout r) {
    return r.members().values().stream()
        .filter(m -> m.approvedVersion() != null)
        .map(Member::cluster)
        .sorted()
        .toList();
  }

  private static List<String> messages(StepResult s, String kind) {
    return s.transitions().stream()
        .filter(t -> t.kind().equals(kind))
        .map(Transition::message)
        .toList();
  }

  static Stream<Arguments> firstWave() {
    return Stream.of(
        Arguments.of(
            "a minute before the Berlin window",
            "2026-01-15T20:59:00Z",
            List.of(),
            WaveState.WaitingForWindow),
        Arguments.of("as it opens", "2026-01-15T21:00:00Z", List.of("b1", "b2"), WaveState.Open),
        Arguments.of(
            "in its last minute", "2026-01-15T21:59:00Z", List.of("b1", "b2"), WaveState.Open),
        Arguments.of("at its end", "2026-01-15T22:00:00Z", List.of(), WaveState.WaitingForWindow),
        Arguments.of(
            "summer time: 22:00 Berlin is 20:00Z",
            "2026-07-15T20:30:00Z",
            List.of("b1", "b2"),
            WaveState.Open),
        Arguments.of(
            "summer time: 21:00Z is after the window",
            "2026-07-15T21:00:00Z",
            List.of(),
            WaveState.WaitingForWindow));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("firstWave")
  void aWaveOpensOnlyWhileOneOfItsClustersIsInsideItsWindow(
      String what, String now, List<String> approved, WaveState state) {
    StepResult s = step(rollout("{}"), now);
    assertThat(approved(s.rollout())).isEqualTo(approved);
    assertThat(s.rollout().waves().get(0).state()).isEqualTo(state);
    assertThat(s.rollout().waves().get(1).state()).isEqualTo(WaveState.Pending);
  }

  @Test
  void aWaitingWaveNamesTheNextWindowAndSteppingAgainChangesNothing() {
    StepResult waiting = step(rollout("{}"), "2026-01-15T20:59:00Z");
    assertThat(messages(waiting, "WaveWaitingForWindow"))
        .containsExactly("until 2026-01-15T21:00:00Z");
    assertThat(waiting.rollout().waves().get(0).openedAt()).isNull();
    assertThat(step(waiting.rollout(), "2026-01-15T20:59:00Z").changed()).isFalse();
    assertThat(step(waiting.rollout(), "2026-01-15T20:59:30Z").changed()).isFalse();
    StepResult open = step(waiting.rollout(), "2026-01-15T21:00:00Z");
    assertThat(open.transitions())
        .extracting(Transition::kind)
        .containsExactly("WaveOpened", "ClusterApproved", "ClusterApproved");
    assertThat(step(open.rollout(), "2026-01-15T21:00:00Z").changed())
        .as("never approved twice")
        .isFalse();
  }

  @Test
  void aFreezeHoldsTheNextWaveUntilTheFirstWindowAfterIt() {
    Rollout r = step(rollout("{}"), "2026-01-15T21:00:00Z").rollout();
    upgraded("b1", "b2");
    StepResult next = step(r, "2026-01-15T21:01:00Z");
    assertThat(next.rollout().waves().get(0).state()).isEqualTo(WaveState.Succeeded);
    assertThat(next.rollout().waves().get(1).state()).isEqualTo(WaveState.WaitingForWindow);
    // 16 January 07:00Z would be New York's window, but the freeze covers that day
    assertThat(messages(next, "WaveWaitingForWindow"))
        .containsExactly("until 2026-01-17T07:00:00Z");
    assertThat(approved(step(next.rollout(), "2026-01-16T07:30:00Z").rollout()))
        .containsExactly("b1", "b2");
    assertThat(approved(step(next.rollout(), "2026-01-17T07:00:00Z").rollout()))
        .containsExactly("b1", "b2", "n1");
  }

  @Test
  void aClusterNoWindowSelectsIsLimitedByNothingButFreezes() {
    Rollout r = step(rollout("{}"), "2026-01-15T21:00:00Z").rollout();
    upgraded("b1", "b2");
    r = step(r, "2026-01-15T21:01:00Z").rollout();
    r = RolloutMachine.command(r, "promote", "alice").rollout();
    StepResult s = step(r, "2026-01-15T21:02:00Z");
    // the New York wave is promoted without its cluster (outside its window); the rest wave opens
    // at once
    assertThat(approved(s.rollout())).containsExactly("b1", "b2", "u1");
    assertThat(s.rollout().members().get("n1").step()).isEqualTo(Step.Pending);
    upgraded("u1");
    assertThat(approved(step(s.rollout(), "2026-01-17T07:00:00Z").rollout()))
        .as("it follows when its window opens")
        .containsExactly("b1", "b2", "n1", "u1");
  }

  @Test
  void theProgressDeadlineCountsOnlyTimeInsideTheClustersWindows() {
    Rollout r =
        step(rollout("{\"progressDeadlineSeconds\":900}"), "2026-01-15T21:50:00Z").rollout();
    upgraded("b2");
    // ten minutes counted by 22:00Z; none overnight; five more from 21:00Z the next day
    StepResult overnight = step(r, "2026-01-16T20:59:00Z");
    assertThat(overnight.rollout().members().get("b1").step()).isEqualTo(Step.Progressing);
    assertThat(step(r, "2026-01-16T21:04:59Z").rollout().members().get("b1").step())
        .isEqualTo(Step.Progressing);
    StepResult late = step(r, "2026-01-16T21:05:00Z");
    assertThat(late.rollout().members().get("b1").step()).isEqualTo(Step.Failed);
    assertThat(late.rollout().phase()).isEqualTo(Phase.Paused);
  }

  @Test
  void theSoakClockStopsWhileTheWaveWaitsForItsWindow() {
    Rollout r = step(rollout("{\"soakSeconds\":1200}"), "2026-01-15T21:40:00Z").rollout();
    upgraded("b1", "b2");
    r = step(r, "2026-01-15T21:50:00Z").rollout();
    assertThat(r.waves().get(0).state()).isEqualTo(WaveState.Soaking);
    StepResult closed = step(r, "2026-01-15T22:00:00Z");
    assertThat(closed.rollout().waves().get(0).state()).isEqualTo(WaveState.WaitingForWindow);
    r = closed.rollout();
    StepResult resumed = step(r, "2026-01-16T21:00:00Z");
    assertThat(resumed.rollout().waves().get(0).state()).isEqualTo(WaveState.Soaking);
    assertThat(resumed.transitions()).extracting(Transition::kind).containsExactly("WaveResumed");
    r = resumed.rollout();
    assertThat(step(r, "2026-01-16T21:09:59Z").rollout().waves().get(0).state())
        .isEqualTo(WaveState.Soaking);
    assertThat(step(r, "2026-01-16T21:10:00Z").rollout().waves().get(0).state())
        .isEqualTo(WaveState.Succeeded);
  }

  @Test
  void aRolloutThatIgnoresTheCalendarApprovesAtOnce() {
    StepResult s = step(rollout("{\"maintenanceWindows\":\"Ignore\"}"), "2026-01-15T12:00:00Z");
    assertThat(approved(s.rollout())).containsExactly("b1", "b2");
    assertThat(s.rollout().waves().get(0).state()).isEqualTo(WaveState.Open);
  }

  @Test
  void theGateMeasuresTheUnionOfTheClustersWindows() {
    CalendarGate gate = CalendarGate.of(CALENDAR, LABELS, Instant.parse("2026-01-17T00:00:00Z"));
    Instant from = Instant.parse("2026-01-15T00:00:00Z");
    // Berlin: 15th and 16th 21:00-22:00Z; New York: 15th 07:00-08:00Z (the 16th is frozen)
    assertThat(gate.openTime("b1", from)).isEqualTo(Duration.ofHours(2));
    assertThat(gate.openTime("n1", from)).isEqualTo(Duration.ofHours(1));
    assertThat(gate.openTimeOfAny(List.of("b1", "b2", "n1"), from)).isEqualTo(Duration.ofHours(3));
    assertThat(gate.openTime("u1", from)).isEqualTo(Duration.ofHours(48));
    assertThat(gate.open("u1")).isTrue();
    assertThat(gate.open("b1")).isFalse();
  }
}
