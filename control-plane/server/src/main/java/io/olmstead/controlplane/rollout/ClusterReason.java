package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.edgerisk.EdgeHolds;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a rollout's cluster is not moving, in one vocabulary: {@code WaitingForApproval (bundle B,
 * since T)} when its agent waits for a person to approve a Manual subscription's bundle, {@code
 * Frozen (freeze F until T)} and {@code OutsideWindow (window W opens T)} when the calendar holds a
 * cluster the rollout has not approved yet, {@code EdgeAtRisk (risk R: ...)} when the upgrade edge
 * it would take failed on clusters with its facts, and {@code PreflightBlocked (findings)} when its
 * preflight held it where it runs, {@code WaitingForProvider (P moves to V on this cluster first)}
 * and {@code ProviderFailed (P did not reach V on this cluster (...))} when an earlier target of a
 * multi-target rollout has not succeeded, or failed, on the cluster ({@link #held}); {@code Failed
 * (agent reason)} and {@code Disconnected (since T)} for what an agent said or stopped saying
 * ({@link #failed}, {@link #disconnected}); {@code BehindPolicy (runs I, policy P)} for a cluster
 * settled below the version its subscription's declared policy leads to, that no rollout holds
 * ({@link #behindPolicy}). {@link #ofMember} is the one decision for a rollout's cluster (the
 * rollout's clusters and the fleet matrix both ask it). Every decision here is pure: the cluster's
 * step, its labels, the calendar, the agent's last report, its connection and the time. {@link
 * #CODES} is the whole vocabulary (the API's enum, the metrics' label values).
 */
record ClusterReason(String code, String subject, Instant at, String message) {
  static final String WAITING_FOR_APPROVAL = "WaitingForApproval";
  static final String FROZEN = "Frozen";
  static final String OUTSIDE_WINDOW = "OutsideWindow";
  static final String EDGE_AT_RISK = EdgeHolds.EDGE_AT_RISK;
  static final String PREFLIGHT_BLOCKED = "PreflightBlocked";
  static final String WAITING_FOR_PROVIDER = TargetGroup.WAITING;
  static final String PROVIDER_FAILED = TargetGroup.PROVIDER_FAILED;
  static final String FAILED = "Failed";
  static final String DISCONNECTED = "Disconnected";
  static final String BEHIND_POLICY = "BehindPolicy";

  /** Every code, in the order the docs list them. */
  static final List<String> CODES =
      List.of(
          WAITING_FOR_APPROVAL,
          FROZEN,
          OUTSIDE_WINDOW,
          EDGE_AT_RISK,
          PREFLIGHT_BLOCKED,
          WAITING_FOR_PROVIDER,
          PROVIDER_FAILED,
          FAILED,
          DISCONNECTED,
          BEHIND_POLICY);

  /**
   * What the agent last said of the cluster that matters here: its phase, the bundle it waits for,
   * since when (the report's time), the version it was asked to run, and its reason and message (of
   * a failure).
   */
  record Report(
      String phase,
      String bundle,
      Instant since,
      String targetVersion,
      String reason,
      String message) {
    Report(String phase, String bundle, Instant since) {
      this(phase, bundle, since, null, null, null);
    }
  }

  /**
   * The cluster's connection: its status ({@code connected}, {@code disconnected}, ...) and when it
   * was last seen.
   */
  record Connection(String status, Instant lastSeen) {
    boolean disconnected() {
      return isDisconnected(status);
    }
  }

  /**
   * Whether a cluster of this connection status is {@code Disconnected}: its agent went away. One
   * that never connected ({@code pending}), or of an unknown status, is not.
   */
  static boolean isDisconnected(String status) {
    return DISCONNECTED.equalsIgnoreCase(status);
  }

  /**
   * The reason of a rollout's cluster {@code m} (null: none to give), in this order: what the
   * engine holds it on ({@link #held}); {@code Disconnected} when its agent is away and it is not
   * done ({@code Succeeded} or {@code RolledBack}); {@code Failed} when its agent reports a failed
   * install of the rollout's {@code target}; then what {@link #of} says. {@code connection} and
   * {@code report} may be null (unknown, nothing reported).
   */
  static ClusterReason ofMember(
      Member m,
      String target,
      Report report,
      Connection connection,
      MaintenanceCalendar calendar,
      Map<String, String> labels,
      Instant now) {
    ClusterReason held = held(m);
    if (held != null) {
      return held;
    }
    boolean done = m.step() == Step.Succeeded || m.step() == Step.RolledBack;
    if (done) {
      return null;
    }
    if (connection != null && connection.disconnected()) {
      return disconnected(connection.lastSeen());
    }
    if (report != null
        && FAILED.equals(report.phase())
        && target != null
        && target.equals(report.targetVersion())) {
      return failed(report.reason(), report.message(), report.since());
    }
    return of(m.step(), report, calendar, labels, now);
  }

  /**
   * {@code BehindPolicy (runs I, policy P)}: a cluster settled at {@code installed} below {@code
   * policy}, the version its subscription's declared policy leads to (the pinned version, the
   * highest of the range in the channel, the channel head); null when either is unknown or not a
   * semantic version, or when it runs that version or newer.
   */
  static ClusterReason behindPolicy(String installed, String policy) {
    Optional<Version> runs = installed == null ? Optional.empty() : Version.tryParse(installed);
    Optional<Version> should = policy == null ? Optional.empty() : Version.tryParse(policy);
    if (runs.isEmpty() || should.isEmpty() || runs.get().compareTo(should.get()) >= 0) {
      return null;
    }
    return new ClusterReason(
        BEHIND_POLICY,
        policy,
        null,
        BEHIND_POLICY + " (runs " + installed + ", policy " + policy + ")");
  }

  /**
   * The reason of a cluster in {@code step} (null: none to give); {@code calendar} is null when the
   * rollout ignores the calendar.
   */
  static ClusterReason of(
      Step step,
      Report report,
      MaintenanceCalendar calendar,
      Map<String, String> labels,
      Instant now) {
    if (report != null
        && "RequiresApproval".equals(report.phase())
        && (step == Step.Pending || step == Step.Progressing)) {
      return new ClusterReason(
          WAITING_FOR_APPROVAL,
          report.bundle(),
          report.since(),
          WAITING_FOR_APPROVAL
              + " (bundle "
              + (report.bundle() == null ? "unknown" : report.bundle())
              + (report.since() == null ? "" : ", since " + report.since())
              + ")");
    }
    if (step != Step.Pending || calendar == null) {
      return null;
    }
    Optional<Freeze> frozen =
        calendar.freezes().stream()
            .filter(f -> f.selector().matches(labels) && f.covers(now))
            .max(Comparator.comparing(Freeze::end));
    if (frozen.isPresent()) {
      Freeze f = frozen.get();
      return new ClusterReason(
          FROZEN, f.name(), f.end(), FROZEN + " (freeze " + f.name() + " until " + f.end() + ")");
    }
    List<MaintenanceWindow> own =
        calendar.windows().stream().filter(w -> w.selector().matches(labels)).toList();
    if (own.isEmpty() || new MaintenanceCalendar(own, List.of()).isOpen(labels, now)) {
      return null;
    }
    record Opening(MaintenanceWindow window, Instant at) {}
    return own.stream()
        .map(w -> new Opening(w, MaintenanceCalendar.nextStartAfter(w, now)))
        .filter(o -> Objects.nonNull(o.at()))
        .min(Comparator.comparing(Opening::at))
        .map(
            o ->
                new ClusterReason(
                    OUTSIDE_WINDOW,
                    o.window().name(),
                    o.at(),
                    OUTSIDE_WINDOW + " (window " + o.window().name() + " opens " + o.at() + ")"))
        .orElse(
            new ClusterReason(
                OUTSIDE_WINDOW,
                own.get(0).name(),
                null,
                OUTSIDE_WINDOW
                    + " (window "
                    + own.get(0).name()
                    + " does not open within "
                    + MaintenanceCalendar.HORIZON.toDays()
                    + " days)"));
  }

  /**
   * The reason a history entry gives the cluster it holds or fails (null: none): {@code
   * ClusterHeld} and {@code ClusterBlocked} with what the engine held it on ({@code EdgeAtRisk},
   * {@code PreflightBlocked}), {@code ClusterFailed} and {@code ClusterStillFailed} as {@code
   * Failed} with the entry's message (the agent's reason and message, or the deadline or check that
   * failed it). Its {@code at} is the entry's time, set where it is written.
   */
  static ClusterReason ofTransition(RolloutModel.Transition t) {
    if (t.cluster() == null || t.message() == null) {
      return null;
    }
    return switch (t.kind()) {
      case "ClusterHeld", "ClusterBlocked" -> {
        ClusterReason edge =
            held(new Member(t.cluster(), 0, Step.Pending, null, null, null, t.message()));
        yield edge != null
            ? edge
            : held(new Member(t.cluster(), 0, Step.Blocked, null, null, null, t.message()));
      }
      case "ClusterFailed", "ClusterStillFailed" -> failed(null, t.message(), null);
      default -> null;
    };
  }

  /**
   * {@code EdgeAtRisk} of a subscription the desired state keeps where it runs outside rollouts:
   * the risk (subject), since when, and the hold's reason line ({@code EdgeAtRisk (risk R: ...)}).
   */
  static ClusterReason edgeHeld(String riskId, Instant since, String message) {
    return new ClusterReason(EDGE_AT_RISK, riskId, since, message);
  }

  /**
   * What the engine itself holds a member on: {@code EdgeAtRisk} of a pending cluster held on an
   * edge at risk (subject: the risk id), {@code PreflightBlocked} of a cluster its preflight
   * blocked (subject: {@code PreflightFailed} or {@code PreflightUnavailable}), else null.
   */
  static ClusterReason held(Member m) {
    String risk = EdgeHolds.riskOf(m.message());
    if (m.step() == Step.Pending && risk != null) {
      return new ClusterReason(EDGE_AT_RISK, risk, null, m.message());
    }
    String provider = TargetGroup.provider(m.message());
    if (provider != null && (m.step() == Step.Pending || m.step() == Step.Blocked)) {
      String code = m.step() == Step.Pending ? WAITING_FOR_PROVIDER : PROVIDER_FAILED;
      if (m.message().startsWith(code + ": ")) {
        return new ClusterReason(
            code, provider, null, code + " (" + m.message().substring(code.length() + 2) + ")");
      }
    }
    if (m.step() != Step.Blocked || m.message() == null) {
      return null;
    }
    for (String kind : List.of(PreflightView.FAILED, PreflightView.UNAVAILABLE)) {
      if (m.message().startsWith(kind + ": ")) {
        return new ClusterReason(
            PREFLIGHT_BLOCKED,
            kind,
            null,
            PREFLIGHT_BLOCKED + " (" + m.message().substring(kind.length() + 2) + ")");
      }
    }
    return null;
  }

  /**
   * How many clusters of {@code rollout} are held, by reason code, as the engine sees them in a
   * step (its agents' reports, its calendar gate): the same decisions as {@link #ofMember}, without
   * the subjects.
   */
  static Map<String, Long> counts(
      Rollout rollout, Map<String, RolloutModel.Report> reports, CalendarGate gate) {
    Map<String, Long> out = new HashMap<>();
    for (Member m : rollout.members().values()) {
      String code = code(m, reports.get(m.cluster()), gate);
      if (code != null) {
        out.merge(code, 1L, Long::sum);
      }
    }
    return out;
  }

  /**
   * The reason code of one member (null: none), in {@link #ofMember}'s order: what the engine holds
   * it on; {@code Disconnected} when its agent went away ({@link #isDisconnected}) and it is not
   * done; {@code Failed} when its agent reports a failed install of this step (the engine's report
   * keeps a phase only when it is about the rollout's target); then the approval and the calendar.
   */
  static String code(Member m, RolloutModel.Report report, CalendarGate gate) {
    ClusterReason held = held(m);
    if (held != null) {
      return held.code();
    }
    if (m.step() == Step.Succeeded || m.step() == Step.RolledBack) {
      return null;
    }
    if (report != null && isDisconnected(report.connection())) {
      return DISCONNECTED;
    }
    if (report != null && FAILED.equals(report.phase())) {
      return FAILED;
    }
    if (report != null
        && "RequiresApproval".equals(report.phase())
        && (m.step() == Step.Pending || m.step() == Step.Progressing)) {
      return WAITING_FOR_APPROVAL;
    }
    if (m.step() != Step.Pending || gate.open(m.cluster())) {
      return null;
    }
    return gate.frozen(m.cluster()) ? FROZEN : OUTSIDE_WINDOW;
  }

  /**
   * {@code Failed (agent reason: message)}: what the agent said of a failed install (subject: its
   * reason).
   */
  static ClusterReason failed(String agentReason, String agentMessage, Instant at) {
    String said =
        agentReason == null
            ? agentMessage
            : agentMessage == null ? agentReason : agentReason + ": " + agentMessage;
    return new ClusterReason(
        FAILED, agentReason, at, FAILED + (said == null ? "" : " (" + said + ")"));
  }

  /**
   * {@code Disconnected (since T)}: the agent has not been heard from since {@code lastSeen} (null:
   * never).
   */
  static ClusterReason disconnected(Instant lastSeen) {
    return new ClusterReason(
        DISCONNECTED,
        null,
        lastSeen,
        DISCONNECTED + (lastSeen == null ? "" : " (since " + lastSeen + ")"));
  }

  JsonObject toJson() {
    return new JsonObject()
        .put("code", code)
        .put("subject", subject)
        .put("at", at == null ? null : at.toString())
        .put("message", message);
  }
}
