package io.olmstead.controlplane.signals;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-subscription gauges of the signals (label {@code subscription} only, never a cluster),
 * exported by the replica that evaluates them: {@code olmstead_subscription_upgrades_available}
 * (channel versions above what the policy allows), {@code
 * olmstead_subscription_upgradable_clusters} (clusters below the newest of them), {@code
 * olmstead_subscription_deprecations}, {@code olmstead_subscription_newer_channel} (0 or 1) and
 * {@code olmstead_subscription_stuck_clusters}.
 */
final class SignalMetrics {
  private static final List<String> NAMES =
      List.of(
          "olmstead.subscription.upgrades.available",
          "olmstead.subscription.upgradable.clusters",
          "olmstead.subscription.deprecations",
          "olmstead.subscription.newer.channel",
          "olmstead.subscription.stuck.clusters");

  private final MeterRegistry registry;
  private final Map<String, double[]> values = new ConcurrentHashMap<>();
  private final Map<String, List<Gauge>> gauges = new ConcurrentHashMap<>();

  SignalMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void observe(String subscription, JsonObject signals) {
    double[] v = values.computeIfAbsent(subscription, this::register);
    JsonObject up = signals.getJsonObject("upgradesAvailable");
    v[0] = up == null ? 0 : up.getJsonArray("versions", new JsonArray()).size();
    v[1] = up == null ? 0 : up.getLong("clusters", 0L);
    v[2] = signals.getJsonArray("deprecations", new JsonArray()).size();
    v[3] = signals.getString("newerChannel") == null ? 0 : 1;
    v[4] = signals.getJsonObject("stuckClusters", new JsonObject()).getLong("count", 0L);
  }

  /** Drops the gauges of subscriptions not in {@code live} (deleted ones). */
  void retain(Collection<String> live) {
    for (String name : List.copyOf(values.keySet())) {
      if (!live.contains(name)) {
        remove(name);
      }
    }
  }

  void clear() {
    retain(List.of());
  }

  private void remove(String subscription) {
    values.remove(subscription);
    List<Gauge> registered = gauges.remove(subscription);
    if (registered != null) {
      registered.forEach(registry::remove);
    }
  }

  private double[] register(String subscription) {
    double[] v = new double[NAMES.size()];
    List<Gauge> registered = new ArrayList<>();
    for (int i = 0; i < NAMES.size(); i++) {
      int index = i;
      registered.add(
          Gauge.builder(NAMES.get(i), v, a -> a[index])
              .tag("subscription", subscription)
              .description("Subscription signal (see docs/api.md#subscription-signals)")
              .register(registry));
    }
    gauges.put(subscription, registered);
    return v;
  }
}
