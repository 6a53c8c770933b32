package io.olmstead.agent.hollow;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelListener;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.DesiredSubscription;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightFinding;
import io.olmstead.apispec.protocol.PreflightRequest;
import io.olmstead.apispec.protocol.ProtocolVersions;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.apispec.protocol.Welcome;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A pretend cluster behind one real channel client: each desired subscription is reported
 * Installing, then after {@code readyAfter} Succeeded at its {@code maxVersion} (or Failed, with
 * probability {@code failureRate}); one sent without a version but with a reason, while nothing of
 * it is installed, is reported Pending with that reason. Preflight requests are answered at once:
 * {@code Pass} for a subscription it was given, {@code Fail} with {@code SubscriptionNotPlaced}
 * otherwise (a hollow cluster has nothing else to check).
 */
final class HollowCluster implements ChannelListener {
  private final Vertx vertx;
  private final Context context;
  private final long readyAfterMillis;
  private final double failureRate;
  private final Map<String, SubscriptionStatus> state = new HashMap<>();
  private final Map<String, Long> timers = new HashMap<>();
  private final Set<String> answered = new HashSet<>();
  private ChannelClient client;
  private long reports;
  private long inventoryRounds;

  HollowCluster(Vertx vertx, long readyAfterMillis, double failureRate) {
    this.vertx = vertx;
    // the caller's context: the one its channel client runs on, so load timers touch this
    // cluster's state on the same thread as the client's callbacks
    this.context = vertx.getOrCreateContext();
    this.readyAfterMillis = readyAfterMillis;
    this.failureRate = failureRate;
  }

  void attach(ChannelClient channel) {
    this.client = channel;
  }

  /**
   * Load generation: re-reports every subscription every {@code intervalMillis} with a fresh
   * message.
   */
  void churn(long intervalMillis) {
    onContext(
        1 + ThreadLocalRandom.current().nextLong(intervalMillis),
        () ->
            vertx.setPeriodic(
                intervalMillis,
                id -> {
                  reports++;
                  state.replaceAll(
                      (name, s) ->
                          new SubscriptionStatus(
                              s.name(),
                              s.installedBundle(),
                              s.installedVersion(),
                              s.targetVersion(),
                              s.phase(),
                              s.reason(),
                              "hollow report " + reports,
                              s.conditions(),
                              s.observedGeneration()));
                  state.values().forEach(client::report);
                }));
  }

  /**
   * Load generation: reports an inventory of {@code operators} operators every {@code
   * intervalMillis} (each differs from the last, see {@link HollowInventory}).
   */
  void inventory(long intervalMillis, int operators) {
    onContext(
        1 + ThreadLocalRandom.current().nextLong(intervalMillis),
        () ->
            vertx.setPeriodic(
                intervalMillis,
                id ->
                    client.publishInventory(
                        HollowInventory.of(state.values(), operators, ++inventoryRounds))));
  }

  /** Runs {@code action} on this cluster's context after {@code delayMillis}. */
  private void onContext(long delayMillis, Runnable action) {
    context.runOnContext(v -> vertx.setTimer(delayMillis, id -> action.run()));
  }

  @Override
  public void onDesired(Desired desired) {
    Map<String, DesiredSubscription> wanted = new HashMap<>();
    desired.subscriptions().forEach(s -> wanted.put(s.name(), s));
    state.keySet().removeIf(name -> !wanted.containsKey(name));
    timers
        .entrySet()
        .removeIf(
            e -> {
              if (!wanted.containsKey(e.getKey())) {
                vertx.cancelTimer(e.getValue());
                return true;
              }
              return false;
            });
    for (DesiredSubscription s : wanted.values()) {
      SubscriptionStatus now = state.get(s.name());
      String target = s.maxVersion();
      if (target == null) {
        held(s, now);
        continue;
      }
      if (now != null && target.equals(now.targetVersion())) {
        continue;
      }
      state.put(
          s.name(),
          new SubscriptionStatus(
              s.name(),
              now == null ? null : now.installedBundle(),
              now == null ? null : now.installedVersion(),
              target,
              "Installing",
              "InstallWaiting",
              "hollow install of " + target,
              List.of(),
              s.generation()));
      Long old =
          timers.put(s.name(), vertx.setTimer(Math.max(1, readyAfterMillis), id -> finish(s)));
      if (old != null) {
        vertx.cancelTimer(old);
      }
    }
    client.replaceAll(new ArrayList<>(state.values()));
    for (PreflightRequest r : desired.preflightRequests()) {
      if (answered.add(r.requestId())) {
        List<PreflightFinding> findings =
            wanted.containsKey(r.subscription())
                ? List.of()
                : List.of(
                    new PreflightFinding(
                        "SubscriptionNotPlaced",
                        PreflightFinding.ERROR,
                        r.subscription(),
                        "subscription " + r.subscription() + " is not placed on this cluster"));
        client.preflight(
            new Preflight(
                ProtocolVersions.CURRENT,
                null,
                r.requestId(),
                r.subscription(),
                r.version(),
                Preflight.verdictOf(findings),
                findings));
      }
    }
  }

  @Override
  public void onConnected(Welcome welcome) {
    answered
        .clear(); // verdicts sent on the last connection may be lost; the desired state asks again
  }

  /**
   * No version allowed, with a reason (a catalog that cannot satisfy the policy, a withheld rollout
   * approval): as the agent does, nothing installed stays so and is reported
   * Pending/RequirementsNotMet with the reason.
   */
  private void held(DesiredSubscription s, SubscriptionStatus now) {
    boolean nothingInstalled = now == null || now.installedVersion() == null;
    if (s.blockedReason() == null
        || !nothingInstalled
        || (now != null
            && "Pending".equals(now.phase())
            && s.blockedReason().equals(now.message()))) {
      return;
    }
    Long timer = timers.remove(s.name());
    if (timer != null) {
      vertx.cancelTimer(timer);
    }
    state.put(
        s.name(),
        new SubscriptionStatus(
            s.name(),
            null,
            null,
            null,
            "Pending",
            "RequirementsNotMet",
            s.blockedReason(),
            List.of(),
            s.generation()));
  }

  private void finish(DesiredSubscription s) {
    timers.remove(s.name());
    boolean failed = failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate;
    String bundle = s.packageName() + ".v" + s.maxVersion();
    SubscriptionStatus done =
        failed
            ? new SubscriptionStatus(
                s.name(),
                null,
                null,
                s.maxVersion(),
                "Failed",
                "InstallCheckFailed",
                "hollow failure (simulated)",
                List.of(),
                s.generation())
            : new SubscriptionStatus(
                s.name(),
                bundle,
                s.maxVersion(),
                s.maxVersion(),
                "Succeeded",
                "InstallSucceeded",
                "install strategy completed with no errors",
                List.of(),
                s.generation());
    state.put(s.name(), done);
    client.report(done);
  }
}
