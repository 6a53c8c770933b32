package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.edgerisk.EdgeHolds;
import io.olmstead.controlplane.http.ApiContract;
import io.olmstead.controlplane.rollout.ClusterReason.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ClusterReasonTest {
  private static final Instant NOW = Instant.parse("2026-11-27T10:30:00Z");
  private static final Map<String, String> EU = Map.of("region", "eu");
  private static final Map<String, String> US = Map.of("region", "us");
  private static final Freeze XMAS =
      Freeze.of(
          "xmas",
          Instant.parse("2026-11-27T00:00:00Z"),
          Instant.parse("2026-11-28T00:00:00Z"),
          "region=eu");
  private static final Freeze LONGER =
      Freeze.of(
          "audit",
          Instant.parse("2026-11-26T00:00:00Z"),
          Instant.parse("2026-11-30T00:00:00Z"),
          "region=eu");
  private static final MaintenanceWindow NIGHT =
      MaintenanceWindow.of("night", "region=us", "0 22 * * *", 60, "UTC");
  private static final MaintenanceWindow NOON =
      MaintenanceWindow.of("noon", "region=us", "0 12 * * *", 60, "UTC");
  private static final MaintenanceWindow MORNING =
      MaintenanceWindow.of("morning", "region=us", "0 10 * * *", 60, "UTC");
  private static final Report WAITING =
      new Report("RequiresApproval", "etcdoperator.v0.9.4", Instant.parse("2026-11-27T10:00:00Z"));

  private static MaintenanceCalendar calendar(
      List<MaintenanceWindow> windows, List<Freeze> freezes) {
    return new MaintenanceCalendar(windows, freezes);
  }

  static Stream<Arguments> table() {
    MaintenanceCalendar frozen = calendar(List.of(), List.of(XMAS, LONGER));
    MaintenanceCalendar windows = calendar(List.of(NIGHT, NOON), List.of());
    return Stream.of(
        Arguments.of(
            "approved, the agent waits for a person",
            Step.Progressing,
            WAITING,
            null,
            EU,
            "WaitingForApproval (bundle etcdoperator.v0.9.4, since 2026-11-27T10:00:00Z)"),
        Arguments.of(
            "waiting for a person wins over a freeze",
            Step.Pending,
            WAITING,
            frozen,
            EU,
            "WaitingForApproval (bundle etcdoperator.v0.9.4, since 2026-11-27T10:00:00Z)"),
        Arguments.of("a finished cluster has no reason", Step.Succeeded, WAITING, frozen, EU, null),
        Arguments.of(
            "frozen: the freeze that ends last",
            Step.Pending,
            null,
            frozen,
            EU,
            "Frozen (freeze audit until 2026-11-30T00:00:00Z)"),
        Arguments.of(
            "a freeze of other clusters holds nothing", Step.Pending, null, frozen, US, null),
        Arguments.of(
            "an approved cluster is not held by the calendar",
            Step.Progressing,
            null,
            frozen,
            EU,
            null),
        Arguments.of("a rollout that ignores the calendar", Step.Pending, null, null, EU, null),
        Arguments.of(
            "outside its windows: the one that opens first",
            Step.Pending,
            null,
            windows,
            US,
            "OutsideWindow (window noon opens 2026-11-27T12:00:00Z)"),
        Arguments.of(
            "inside one of its windows",
            Step.Pending,
            null,
            calendar(List.of(NIGHT, MORNING), List.of()),
            US,
            null),
        Arguments.of("no window selects the cluster", Step.Pending, null, windows, EU, null),
        Arguments.of(
            "an agent reporting progress gives no reason",
            Step.Progressing,
            new Report("Upgrading", null, null),
            frozen,
            EU,
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void givesTheReasonOfAClusterThatIsNotMoving(
      String why,
      Step step,
      Report report,
      MaintenanceCalendar calendar,
      Map<String, String> labels,
      String expected) {
    ClusterReason reason = ClusterReason.of(step, report, calendar, labels, NOW);
    assertThat(reason == null ? null : reason.message()).isEqualTo(expected);
  }

  static Stream<Arguments> holds() {
    return Stream.of(
        Arguments.of(
            "a preflight that failed in Block mode",
            Step.Blocked,
            "PreflightFailed: ExistingResourceInvalid (etcdclusters): spec.size is required",
            "PreflightBlocked (ExistingResourceInvalid (etcdclusters): spec.size is required)",
            "PreflightFailed"),
        Arguments.of(
            "an agent that gave no verdict in time",
            Step.Blocked,
            "PreflightUnavailable: no preflight verdict from the agent within 60s",
            "PreflightBlocked (no preflight verdict from the agent within 60s)",
            "PreflightUnavailable"),
        Arguments.of(
            "blocked by its agent, not by preflight", Step.Blocked, "upgrade blocked", null, null),
        Arguments.of(
            "a preflight message on a cluster no longer blocked",
            Step.Progressing,
            "PreflightFailed: ExistingResourceInvalid",
            null,
            null),
        Arguments.of(
            "held on an edge at risk",
            Step.Pending,
            "EdgeAtRisk (risk r-1: etcd 0.9.2 -> 0.9.4 failed on 2 clusters)",
            "EdgeAtRisk (risk r-1: etcd 0.9.2 -> 0.9.4 failed on 2 clusters)",
            "r-1"),
        Arguments.of("a plain pending cluster", Step.Pending, null, null, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("holds")
  void namesWhatTheEngineHoldsAClusterOn(
      String why, Step step, String memberMessage, String expected, String subject) {
    ClusterReason reason =
        ClusterReason.held(new Member("c1", 0, step, "0.2.0", null, null, memberMessage));
    assertThat(reason == null ? null : reason.message()).isEqualTo(expected);
    assertThat(reason == null ? null : reason.subject()).isEqualTo(subject);
  }

  @Test
  void failedQuotesWhatTheAgentSaid() {
    Instant at = Instant.parse("2026-11-27T09:00:00Z");
    assertThat(ClusterReason.failed("InstallFailed", "image not found", at).message())
        .isEqualTo("Failed (InstallFailed: image not found)");
    assertThat(ClusterReason.failed(null, "image not found", at).message())
        .isEqualTo("Failed (image not found)");
    assertThat(ClusterReason.failed("InstallFailed", null, at).subject())
        .isEqualTo("InstallFailed");
    assertThat(ClusterReason.failed(null, null, at).message()).isEqualTo("Failed");
  }

  @Test
  void disconnectedSaysSinceWhen() {
    assertThat(ClusterReason.disconnected(Instant.parse("2026-11-27T08:00:00Z")).message())
        .isEqualTo("Disconnected (since 2026-11-27T08:00:00Z)");
    assertThat(ClusterReason.disconnected(null).message()).isEqualTo("Disconnected");
  }

  private static final Instant SEEN = Instant.parse("2026-11-27T10:10:00Z");
  private static final ClusterReason.Connection ONLINE =
      new ClusterReason.Connection("connected", SEEN);
  private static final ClusterReason.Connection AWAY =
      new ClusterReason.Connection("disconnected", SEEN);

  private static Member member(Step step, String message) {
    return new Member("c1", 0, step, "0.9.2", step == Step.Pending ? null : "0.9.4", null, message);
  }

  private static Report failedAt(String target) {
    return new Report(
        "Failed", null, SEEN, target, "InstallCheckFailed", "install strategy failed");
  }

  @Test
  void aMemberWhoseAgentFailedToInstallTheTargetIsFailedWithTheAgentsReason() {
    ClusterReason failed =
        ClusterReason.ofMember(
            member(Step.Failed, "install strategy failed"),
            "0.9.4",
            failedAt("0.9.4"),
            ONLINE,
            null,
            EU,
            NOW);
    assertThat(failed.code()).isEqualTo("Failed");
    assertThat(failed.subject()).isEqualTo("InstallCheckFailed");
    assertThat(failed.at()).isEqualTo(SEEN);
    assertThat(failed.message()).isEqualTo("Failed (InstallCheckFailed: install strategy failed)");
    assertThat(
            ClusterReason.ofMember(
                member(Step.Progressing, null), "0.9.4", failedAt("0.9.2"), ONLINE, null, EU, NOW))
        .as("a failure of another version is not the rollout's")
        .isNull();
  }

  @Test
  void aMemberWhoseAgentIsAwayIsDisconnectedUnlessItIsDone() {
    assertThat(
            ClusterReason.ofMember(
                    member(Step.Progressing, null), "0.9.4", failedAt("0.9.4"), AWAY, null, EU, NOW)
                .message())
        .isEqualTo("Disconnected (since 2026-11-27T10:10:00Z)");
    assertThat(
            ClusterReason.ofMember(
                member(Step.Succeeded, "running 0.9.4"), "0.9.4", null, AWAY, null, EU, NOW))
        .isNull();
    assertThat(
            ClusterReason.ofMember(
                    member(Step.Pending, "EdgeAtRisk (risk r-1: etcd 0.9.2 -> 0.9.4 failed)"),
                    "0.9.4",
                    null,
                    AWAY,
                    null,
                    EU,
                    NOW)
                .code())
        .as("what the engine holds it on comes first")
        .isEqualTo("EdgeAtRisk");
    assertThat(
            ClusterReason.ofMember(
                    member(Step.Pending, null),
                    "0.9.4",
                    null,
                    ONLINE,
                    calendar(List.of(), List.of(XMAS)),
                    EU,
                    NOW)
                .code())
        .isEqualTo("Frozen");
  }

  @Test
  void aHistoryEntryThatHoldsOrFailsAClusterCarriesItsReason() {
    ClusterReason edge =
        ClusterReason.ofTransition(
            new RolloutModel.Transition(
                "ClusterHeld",
                "canary",
                "c1",
                "EdgeAtRisk (risk r-1: etcd 0.9.2 -> 0.9.4 failed on 2 clusters)"));
    assertThat(edge.code()).isEqualTo("EdgeAtRisk");
    assertThat(edge.subject()).isEqualTo("r-1");
    ClusterReason preflight =
        ClusterReason.ofTransition(
            new RolloutModel.Transition(
                "ClusterHeld",
                "canary",
                "c1",
                "PreflightFailed: ExistingResourceInvalid (etcdclusters): spec.size is required"));
    assertThat(preflight.code()).isEqualTo("PreflightBlocked");
    assertThat(preflight.subject()).isEqualTo("PreflightFailed");
    ClusterReason failed =
        ClusterReason.ofTransition(
            new RolloutModel.Transition(
                "ClusterFailed", "canary", "c1", "InstallCheckFailed: deployment not ready"));
    assertThat(failed.message()).isEqualTo("Failed (InstallCheckFailed: deployment not ready)");
    assertThat(
            ClusterReason.ofTransition(
                new RolloutModel.Transition("ClusterBlocked", "canary", "c1", "upgrade blocked")))
        .as("Upgradeable=False has no code")
        .isNull();
    assertThat(
            ClusterReason.ofTransition(
                new RolloutModel.Transition("ClusterApproved", "canary", "c1", "0.9.4")))
        .isNull();
    assertThat(
            ClusterReason.ofTransition(new RolloutModel.Transition("Paused", null, null, "paused")))
        .isNull();
  }

  @Test
  void behindPolicyComparesSemanticVersions() {
    assertThat(ClusterReason.behindPolicy("0.9.2", "0.10.0").message())
        .isEqualTo("BehindPolicy (runs 0.9.2, policy 0.10.0)");
    assertThat(ClusterReason.behindPolicy("0.10.0", "0.9.2")).isNull();
    assertThat(ClusterReason.behindPolicy("0.9.2", "0.9.2")).isNull();
    assertThat(ClusterReason.behindPolicy(null, "0.9.2")).isNull();
    assertThat(ClusterReason.behindPolicy("latest", "0.9.2")).isNull();
  }

  @Test
  void theVocabularyHoldsEveryCodeOnce() {
    assertThat(ClusterReason.CODES)
        .doesNotHaveDuplicates()
        .contains(
            EdgeHolds.EDGE_AT_RISK,
            "PreflightBlocked",
            "Failed",
            "Disconnected",
            "WaitingForApproval",
            "Frozen",
            "OutsideWindow",
            "BehindPolicy");
  }

  @Test
  void theApiSpecListsTheSameCodes() {
    assertThat(
            ApiContract.load()
                .published()
                .getJsonObject("components")
                .getJsonObject("schemas")
                .getJsonObject("ReasonCode")
                .getJsonArray("enum")
                .getList())
        .containsExactlyElementsOf(ClusterReason.CODES);
  }
}
