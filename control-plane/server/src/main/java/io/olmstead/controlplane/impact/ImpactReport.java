package io.olmstead.controlplane.impact;

import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.ClusterVersion;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The fleet-wide impact report of a rollout preview (pure): per installed version the {@link
 * Transition} to the target, per cluster its upgrade path, the custom resources the CRD changes
 * touch (from the inventory's counts), its OpenShift upgrade effect, the window it may move in and
 * the risky edges on its path, and totals over every cluster. Clusters past {@link
 * ImpactLimits#clusters()} are counted in the totals but not listed.
 */
public final class ImpactReport {
  private ImpactReport() {}

  /**
   * One participating cluster: its wave, installed version (null: nothing installed), upgrade path
   * ({@code [{bundle, version}]}, every hop), OpenShift version (null: none known), custom
   * resources by CRD name, and its preflight verdict (null: preflight off).
   */
  public record ClusterInput(
      String name,
      String wave,
      String fromVersion,
      JsonArray path,
      ClusterVersion openShift,
      Map<String, Long> customResources,
      String preflight) {}

  /**
   * The report. {@code transitions} by installed version ({@code ""} for clusters with nothing
   * installed); {@code window} answers a cluster's {@code {openNow, nextOpening}}.
   */
  public static JsonObject build(
      String targetVersion,
      BundleManifests target,
      Map<String, Transition> transitions,
      List<ClusterInput> clusters,
      Function<String, JsonObject> window,
      EdgeRisks edges,
      ImpactLimits limits) {
    Totals totals = new Totals();
    JsonArray listed = new JsonArray();
    for (ClusterInput c : clusters) {
      Transition t = transitions.get(c.fromVersion() == null ? "" : c.fromVersion());
      JsonObject json = cluster(c, t, target, window, edges, totals);
      if (listed.size() < limits.clusters()) {
        listed.add(json);
      }
    }
    JsonArray transitionJson = new JsonArray();
    new TreeMap<>(transitions)
        .forEach(
            (from, t) ->
                transitionJson.add(
                    t.json().copy().put("clusters", totals.byFrom.getOrDefault(from, 0))));
    JsonObject out =
        new JsonObject()
            .put("targetVersion", targetVersion)
            .put("targetBundle", target.bundle())
            .put("totals", totals.toJson(clusters.size(), edges.evaluated()))
            .put("transitions", transitionJson)
            .put("clusters", listed)
            .put("riskyEdges", new JsonObject().put("evaluated", edges.evaluated()));
    if (clusters.size() > listed.size()) {
      out.put("clustersTruncated", true);
    }
    return out;
  }

  private static JsonObject cluster(
      ClusterInput c,
      Transition t,
      BundleManifests target,
      Function<String, JsonObject> window,
      EdgeRisks edges,
      Totals totals) {
    totals.byFrom.merge(c.fromVersion() == null ? "" : c.fromVersion(), 1, Integer::sum);
    JsonArray affected = new JsonArray();
    long resources = 0;
    if (t != null) {
      for (Map.Entry<String, String> crd : t.affectedCrds().entrySet()) {
        long count = c.customResources().getOrDefault(crd.getKey(), 0L);
        if (count > 0) {
          affected.add(
              new JsonObject()
                  .put("crd", crd.getKey())
                  .put("count", count)
                  .put("change", crd.getValue()));
          resources += count;
          totals.breakingResources += CrdDiff.BREAKING.equals(crd.getValue()) ? count : 0;
        }
      }
      totals.gaining += t.gainsPermissions() ? 1 : 0;
      totals.losing += t.losesPermissions() ? 1 : 0;
      totals.webhooks += t.webhooksChange() ? 1 : 0;
      totals.losingApis += t.removesApis() ? 1 : 0;
    }
    totals.resources += resources;
    totals.withResources += resources > 0 ? 1 : 0;
    totals.maxHops = Math.max(totals.maxHops, c.path().size());
    JsonObject openShift =
        OpenShiftEffect.of(
            c.openShift(),
            t == null ? null : t.from().maxOpenShiftVersion(),
            target.maxOpenShiftVersion());
    totals.openShift.merge(openShift.getString("effect"), 1, Integer::sum);
    JsonObject w = window.apply(c.name());
    totals.window(w);
    JsonArray risky = edges.risks(c.name(), c.fromVersion(), c.path());
    totals.risky += risky.isEmpty() ? 0 : 1;
    JsonObject json =
        new JsonObject()
            .put("name", c.name())
            .put("wave", c.wave())
            .put("fromVersion", c.fromVersion())
            .put("path", c.path())
            .put("hops", c.path().size())
            .put(
                "customResources",
                new JsonObject().put("affected", affected).put("total", resources))
            .put("openShift", openShift)
            .put("window", w)
            .put("riskyEdges", risky);
    if (c.preflight() != null) {
      json.put("preflight", c.preflight());
    }
    return json;
  }

  /** Counts over every cluster, listed or not. */
  private static final class Totals {
    final Map<String, Integer> byFrom = new TreeMap<>();
    final Map<String, Integer> openShift = new TreeMap<>();
    int gaining;
    int losing;
    int webhooks;
    int losingApis;
    int withResources;
    long resources;
    long breakingResources;
    int maxHops;
    int openNow;
    int later;
    int never;
    int risky;

    void window(JsonObject w) {
      if (w.getBoolean("openNow", false)) {
        openNow++;
      } else if (w.getString("nextOpening") != null) {
        later++;
      } else {
        never++;
      }
    }

    JsonObject toJson(int clusters, boolean edgesEvaluated) {
      JsonObject from = new JsonObject();
      byFrom.forEach((v, n) -> from.put(v.isEmpty() ? "none" : v, n));
      JsonObject os = new JsonObject();
      openShift.forEach(os::put);
      return new JsonObject()
          .put("clusters", clusters)
          .put("fromVersions", from)
          .put("maxHops", maxHops)
          .put(
              "rbac",
              new JsonObject()
                  .put("clustersGainingPermissions", gaining)
                  .put("clustersLosingPermissions", losing))
          .put(
              "customResources",
              new JsonObject()
                  .put("clustersAffected", withResources)
                  .put("affected", resources)
                  .put("breaking", breakingResources))
          .put("webhooks", new JsonObject().put("clustersWithChanges", webhooks))
          .put("apis", new JsonObject().put("clustersLosingApis", losingApis))
          .put("openShift", os)
          .put(
              "windows",
              new JsonObject().put("openNow", openNow).put("later", later).put("noWindow", never))
          .put(
              "riskyEdges",
              new JsonObject().put("evaluated", edgesEvaluated).put("clustersAtRisk", risky));
    }
  }
}
