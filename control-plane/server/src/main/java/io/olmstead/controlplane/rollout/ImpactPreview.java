package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.impact.BundleManifests;
import io.olmstead.controlplane.impact.BundleSource;
import io.olmstead.controlplane.impact.EdgeRisks;
import io.olmstead.controlplane.impact.ImpactLimits;
import io.olmstead.controlplane.impact.ImpactReport;
import io.olmstead.controlplane.impact.ImpactReport.ClusterInput;
import io.olmstead.controlplane.impact.Transition;
import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The preview's {@code impact} (I/O; the report itself is {@link ImpactReport}'s): reads the
 * installed and target bundles' objects, the clusters' facts and the inventory's custom-resource
 * counts, then builds the report on a worker (CRD schemas are compared and thousands of clusters
 * listed). Risky edges are those the engine would hold the cluster on ({@link PreviewEdgeRisks}).
 */
final class ImpactPreview {
  private static final Logger LOG = LoggerFactory.getLogger(ImpactPreview.class);
  private static final String FACTS = "SELECT name, facts FROM clusters WHERE name = ANY($1)";
  private static final String RESOURCES =
      "SELECT cluster, crd, count FROM cluster_inventory_crds "
          + "WHERE subscription = $1 AND count > 0";

  private final Vertx vertx;
  private final BundleSource bundles;
  private final EdgeRiskSettings edgeRisk;
  private final ImpactLimits limits;

  ImpactPreview(Vertx vertx, long maxBodyBytes, EdgeRiskSettings edgeRisk, ImpactLimits limits) {
    this.vertx = vertx;
    this.bundles = new BundleSource(vertx, maxBodyBytes);
    this.edgeRisk = edgeRisk;
    this.limits = limits;
  }

  /**
   * The report for {@code plan} to {@code target}; {@code gate} null: the rollout ignores the
   * calendar.
   */
  Future<JsonObject> report(
      SqlClient client,
      RolloutPlanLoader.Plan plan,
      String target,
      CalendarGate gate,
      PreflightView preflight,
      Instant now) {
    SubscriptionSpec spec = plan.subscription().spec();
    Set<String> versions = new LinkedHashSet<>(plan.fromVersions());
    versions.add(target);
    List<String> names = plan.waves().stream().flatMap(w -> w.clusters().stream()).toList();
    Future<Map<String, BundleManifests>> found =
        bundles.byVersion(client, spec.catalog(), spec.packageName(), versions);
    Future<Map<String, JsonObject>> facts = facts(client, names);
    Future<Map<String, Map<String, Long>>> resources =
        resources(client, plan.subscription().name());
    Future<EdgeRisks> edges =
        PreviewEdgeRisks.load(
            client, edgeRisk, spec.packageName(), spec.team(), target, plan.versions(), now);
    return Future.all(found, facts, resources, edges)
        .compose(
            all ->
                vertx.executeBlocking(
                    () ->
                        build(
                            plan,
                            target,
                            found.result(),
                            facts.result(),
                            resources.result(),
                            window(gate),
                            preflight,
                            edges.result(),
                            now),
                    false))
        .recover(
            e -> {
              // the plan stands without its report: say so rather than fail the preview
              LOG.warn(
                  "impact report of {} to {} failed: {}",
                  plan.subscription().name(),
                  target,
                  e.toString());
              return Future.succeededFuture(
                  new JsonObject()
                      .put("targetVersion", target)
                      .put(
                          "unavailable",
                          "the impact report could not be computed; see the control plane's log"));
            });
  }

  private JsonObject build(
      RolloutPlanLoader.Plan plan,
      String target,
      Map<String, BundleManifests> found,
      Map<String, JsonObject> facts,
      Map<String, Map<String, Long>> resources,
      Function<String, JsonObject> window,
      PreflightView preflight,
      EdgeRisks edges,
      Instant now) {
    BundleManifests to =
        found.getOrDefault(
            target,
            BundleManifests.unavailable(
                null,
                target,
                null,
                "no bundle of version " + target + " in the catalog's current revision"));
    Map<String, Transition> transitions = new HashMap<>();
    boolean checks = preflight.policy().mode() != PreflightPolicy.Mode.Off;
    List<ClusterInput> clusters = new ArrayList<>();
    for (WavePlanner.PlannedWave w : plan.waves()) {
      for (String c : w.clusters()) {
        String from = plan.versions().get(c);
        transitions.computeIfAbsent(
            from == null ? "" : from,
            k ->
                Transition.of(
                    from,
                    from == null
                        ? BundleManifests.NONE
                        : found.getOrDefault(
                            from,
                            BundleManifests.unavailable(
                                null,
                                from,
                                null,
                                "no bundle of version "
                                    + from
                                    + " in the catalog's current revision")),
                    to,
                    limits));
        boolean online = !plan.offline().contains(c);
        clusters.add(
            new ClusterInput(
                c,
                w.name(),
                from,
                plan.paths().getOrDefault(c, new JsonArray()),
                UpgradeReadiness.version(plan.labels().getOrDefault(c, Map.of()), facts.get(c))
                    .orElse(null),
                resources.getOrDefault(c, Map.of()),
                checks ? preflight.preview(c, online, now).getString("verdict") : null));
      }
    }
    return ImpactReport.build(target, to, transitions, clusters, window, edges, limits);
  }

  private static Function<String, JsonObject> window(CalendarGate gate) {
    if (gate == null) {
      return c -> new JsonObject().put("openNow", true).put("calendar", "ignored");
    }
    return c -> {
      boolean open = gate.open(c);
      JsonObject json = new JsonObject().put("openNow", open);
      return open
          ? json
          : json.put(
              "nextOpening", gate.nextOpening(List.of(c)).map(Object::toString).orElse(null));
    };
  }

  private static Future<Map<String, JsonObject>> facts(SqlClient client, List<String> names) {
    return client
        .preparedQuery(FACTS)
        .execute(Tuple.of(names.toArray(String[]::new)))
        .map(
            rows -> {
              Map<String, JsonObject> out = new HashMap<>();
              for (Row r : rows) {
                out.put(r.getString("name"), r.getJsonObject("facts"));
              }
              return out;
            });
  }

  private static Future<Map<String, Map<String, Long>>> resources(
      SqlClient client, String subscription) {
    return client
        .preparedQuery(RESOURCES)
        .execute(Tuple.of(subscription))
        .map(
            rows -> {
              Map<String, Map<String, Long>> out = new HashMap<>();
              for (Row r : rows) {
                out.computeIfAbsent(r.getString("cluster"), k -> new HashMap<>())
                    .put(r.getString("crd"), r.getLong("count"));
              }
              return out;
            });
  }
}
