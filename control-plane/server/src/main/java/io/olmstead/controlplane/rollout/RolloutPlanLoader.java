package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.catalog.CatalogStore;
import io.olmstead.controlplane.catalog.ChannelGraphs;
import io.olmstead.controlplane.catalog.UpgradePaths;
import io.olmstead.controlplane.hypershift.HostedLabels;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.subscription.Placements;
import io.olmstead.controlplane.subscription.Subscription;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.olmstead.olmcore.fbc.ChannelGraph;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Plans a rollout from the database: the subscription's placed clusters, what each runs, each one's
 * upgrade path to the target (olm-core's channel graph), the clusters that cannot take part and
 * why, and the waves.
 */
final class RolloutPlanLoader {
  private static final String CLUSTERS =
      "SELECT name, labels, status FROM clusters WHERE status <> 'retired' " + "ORDER BY name";
  private static final String STATUS =
      "SELECT cluster, installed_version, target_version, phase, reason, message, "
          + "EXISTS (SELECT 1 FROM "
          + "jsonb_array_elements(conditions) e WHERE e->>'type' = 'Upgradeable' AND e->>'status' = 'False') AS blocked "
          + "FROM subscription_status WHERE subscription = $1 AND NOT gone";
  private static final String DEFAULT_CHANNEL =
      "SELECT default_channel FROM catalog_packages "
          + "WHERE catalog = $1 AND revision = $2 AND package = $3";

  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private final CatalogStore catalogs = new CatalogStore();
  private final ChannelGraphs graphs = new ChannelGraphs(32);

  /**
   * A request, checked; {@code force}: start even when every placed cluster already runs the
   * target.
   */
  record Request(
      String subscription, String targetVersion, RolloutStrategy strategy, boolean force) {
    static Request parse(JsonObject body) {
      String subscription = body.getString("subscription");
      String target = body.getString("targetVersion");
      if (subscription == null || target == null) {
        throw ApiException.badRequest("subscription and targetVersion are required");
      }
      if (Version.tryParse(target).isEmpty()) {
        throw ApiException.badRequest(
            "targetVersion " + target + " is not a semantic version", "targetVersion");
      }
      try {
        AnalysisPolicy.checkRequest(body.getJsonObject("strategy"));
        return new Request(
            subscription,
            target,
            RolloutStrategy.fromJson(body.getJsonObject("strategy")),
            body.getBoolean("force", false));
      } catch (StrategyException e) {
        // the schema passed; a rule across fields or about a value did not
        throw ApiException.validationFailed(
            e.getMessage(),
            new JsonArray()
                .add(new JsonObject().put("field", e.pointer()).put("message", e.getMessage())));
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest(e.getMessage(), "strategy");
      }
    }
  }

  /**
   * The plan: waves, participants with current version and path, and who is left out; {@code held}
   * are the excluded clusters that run a version, kept there while the rollout runs (they are not
   * newcomers to admit later); {@code failing} are participants whose last report is {@code Failed}
   * (they fail their wave unless the new version brings them back).
   */
  record Plan(
      Subscription subscription,
      List<WavePlanner.PlannedWave> waves,
      Map<String, String> versions,
      Map<String, JsonArray> paths,
      Map<String, String> excluded,
      Map<String, String> held,
      List<String> offline,
      List<String> unreachable,
      Map<String, JsonObject> failing,
      Map<String, Map<String, String>> labels,
      boolean alreadyAtTarget) {
    List<String> fromVersions() {
      return versions.values().stream().filter(v -> v != null).distinct().sorted().toList();
    }

    JsonObject toJson() {
      return toJson(null, false, PreflightView.OFF, null);
    }

    /**
     * The preview; with a {@code gate} (the rollout respects the calendar), each wave says when the
     * first of its clusters may change ({@code windowOpensAt}: now when one may now, null when none
     * may within 400 days); with preflight on, each cluster carries {@code preflight: {verdict,
     * findings}}.
     */
    JsonObject toJson(CalendarGate gate, boolean grouped, PreflightView preflight, Instant now) {
      boolean checks = preflight.policy().mode() != PreflightPolicy.Mode.Off;
      JsonArray waveJson = new JsonArray();
      Map<String, JsonObject> groups = new LinkedHashMap<>();
      for (WavePlanner.PlannedWave w : waves) {
        JsonArray clusters = new JsonArray();
        for (String c : w.clusters()) {
          JsonObject cluster =
              new JsonObject()
                  .put("name", c)
                  .put("currentVersion", versions.get(c))
                  .put("online", !offline.contains(c))
                  .put("upgradePath", paths.getOrDefault(c, new JsonArray()));
          if (checks) {
            cluster.put("preflight", preflight.preview(c, !offline.contains(c), now));
          }
          clusters.add(cluster);
        }
        JsonObject wave = new JsonObject().put("name", w.name()).put("clusters", clusters);
        if (gate != null) {
          wave.put(
              "windowOpensAt", gate.nextOpening(w.clusters()).map(Object::toString).orElse(null));
        }
        if (grouped) {
          wave.put("group", w.group());
          JsonObject group =
              groups.computeIfAbsent(
                  String.valueOf(w.group()),
                  k ->
                      new JsonObject()
                          .put("value", w.group())
                          .put("clusters", 0)
                          .put("waves", new JsonArray()));
          group.put("clusters", group.getInteger("clusters") + w.clusters().size());
          group.getJsonArray("waves").add(w.name());
        }
        waveJson.add(wave);
      }
      JsonArray out = new JsonArray();
      new TreeMap<>(excluded)
          .forEach((c, why) -> out.add(new JsonObject().put("name", c).put("reason", why)));
      JsonArray failed = new JsonArray();
      new TreeMap<>(failing).values().forEach(failed::add);
      JsonObject json =
          new JsonObject()
              .put("subscription", subscription.name())
              .put("fromVersions", new JsonArray(new ArrayList<>(fromVersions())))
              .put("waves", waveJson)
              .put("excluded", out)
              .put("failing", failed)
              .put("alreadyAtTarget", alreadyAtTarget);
      return grouped ? json.put("groups", new JsonArray(new ArrayList<>(groups.values()))) : json;
    }
  }

  /**
   * A preview's plan: reads only. A subscription {@code caller} may not see is answered as missing
   * (404).
   */
  Future<Plan> plan(SqlClient conn, Request request, Principal caller) {
    return plan(conn, request, subscriptions.get(conn, request.subscription()), caller);
  }

  /**
   * The plan a rollout is created from, with the subscription's row locked until the transaction
   * ends, so a concurrent version change or delete of it waits and then sees this rollout (409)
   * instead of slipping past it.
   */
  Future<Plan> planLocked(SqlConnection tx, Request request, Principal caller) {
    return plan(tx, request, subscriptions.lock(tx, request.subscription()), caller);
  }

  private Future<Plan> plan(
      SqlClient conn,
      Request request,
      Future<Optional<Subscription>> subscription,
      Principal caller) {
    return subscription.compose(
        found -> {
          Subscription sub =
              caller.visible(
                  found,
                  s -> s.spec().team(),
                  "subscription " + request.subscription() + " does not exist");
          return graph(conn, sub)
              .compose(
                  graph ->
                      conn.query(CLUSTERS)
                          .execute()
                          .compose(
                              clusterRows ->
                                  conn.preparedQuery(STATUS)
                                      .execute(Tuple.of(sub.name()))
                                      .map(
                                          statusRows ->
                                              build(
                                                  request, sub, graph, clusterRows, statusRows))));
        });
  }

  private Plan build(
      Request request,
      Subscription sub,
      ChannelGraph graph,
      Iterable<Row> clusterRows,
      Iterable<Row> statusRows) {
    Version target = Version.tryParse(request.targetVersion()).orElseThrow();
    boolean targetInChannel =
        graph.entries().stream()
            .anyMatch(
                e -> graph.versionOf(e.name()).filter(v -> v.compareTo(target) == 0).isPresent());
    if (!targetInChannel) {
      throw ApiException.validationFailed(
          "version "
              + target
              + " is not in channel "
              + graph.name()
              + " of the subscription's catalog",
          new JsonArray()
              .add(
                  new JsonObject()
                      .put("field", "targetVersion")
                      .put("message", "not in the channel")));
    }
    Map<String, String> installed = new HashMap<>();
    Map<String, Boolean> blocked = new HashMap<>();
    Map<String, JsonObject> failed = new HashMap<>();
    for (Row r : statusRows) {
      installed.put(r.getString("cluster"), r.getString("installed_version"));
      blocked.put(r.getString("cluster"), Boolean.TRUE.equals(r.getBoolean("blocked")));
      if (RolloutMachine.FAILED.equals(r.getString("phase"))) {
        failed.put(
            r.getString("cluster"),
            new JsonObject()
                .put("name", r.getString("cluster"))
                .put("targetVersion", r.getString("target_version"))
                .put("reason", r.getString("reason"))
                .put("message", r.getString("message")));
      }
    }
    Map<String, JsonObject> failing = new HashMap<>();
    List<WavePlanner.PlanCluster> participants = new ArrayList<>();
    Map<String, String> versions = new HashMap<>();
    Map<String, JsonArray> paths = new HashMap<>();
    Map<String, String> excluded = new HashMap<>();
    Map<String, String> held = new HashMap<>();
    List<String> offline = new ArrayList<>();
    List<String> unreachable = new ArrayList<>();
    Map<String, Map<String, String>> participantLabels = new HashMap<>();
    String groupBy = request.strategy().groupBy();
    boolean grouped = false;
    List<WavePlanner.PlanCluster> placedClusters = new ArrayList<>();
    int placed = 0;
    int atTarget = 0;
    for (Row c : clusterRows) {
      String name = c.getString("name");
      Map<String, String> labels = new HashMap<>();
      JsonObject json = c.getJsonObject("labels");
      if (json != null) {
        json.forEach(e -> labels.put(e.getKey(), String.valueOf(e.getValue())));
      }
      if (!Placements.selects(sub.spec(), name, labels)) {
        continue;
      }
      String current = installed.get(name);
      placed++;
      placedClusters.add(new WavePlanner.PlanCluster(name, labels));
      grouped |= groupBy != null && labels.containsKey(groupBy);
      if (current != null
          && Version.tryParse(current).map(v -> v.compareTo(target) == 0).orElse(false)) {
        atTarget++;
      }
      if ("true".equals(labels.get(HostedLabels.PAUSED))) {
        // a paused HostedCluster is held where it is, as HyperShift holds its own reconciliation
        excluded.put(name, "paused: its HostedCluster is paused");
        if (current != null) {
          held.put(name, current);
        }
        continue;
      }
      if (Boolean.TRUE.equals(blocked.get(name))) {
        excluded.put(name, "blocked: last reported Upgradeable=False");
        if (current != null) {
          held.put(name, current);
        }
        continue;
      }
      if (current != null) {
        Optional<JsonArray> path = path(graph, current, request.targetVersion());
        if (path.isEmpty()) {
          excluded.put(name, "no upgrade path from " + current + " to " + request.targetVersion());
          unreachable.add(name);
          continue;
        }
        paths.put(name, path.get());
      }
      if (!"connected".equals(c.getString("status"))) {
        offline.add(name); // takes part; waits (and counts as unavailable) until it connects
      }
      versions.put(name, current);
      if (failed.containsKey(name)) {
        failing.put(name, failed.get(name));
      }
      participants.add(new WavePlanner.PlanCluster(name, labels));
      participantLabels.put(name, labels);
    }
    if (groupBy != null && placed > 0 && !grouped) {
      String why = "no cluster the subscription places on has the label " + groupBy;
      throw ApiException.validationFailed(
          why,
          new JsonArray()
              .add(new JsonObject().put("field", "/strategy/groupBy").put("message", why)));
    }
    List<String> missing = WavePlanner.missingGroups(placedClusters, request.strategy());
    if (placed > 0 && !missing.isEmpty()) {
      JsonArray errors = new JsonArray();
      List<String> order = request.strategy().groupOrder();
      missing.forEach(
          v ->
              errors.add(
                  new JsonObject()
                      .put("field", "/strategy/groupOrder/" + order.indexOf(v))
                      .put(
                          "message",
                          "no cluster the subscription places on has " + groupBy + "=" + v)));
      throw ApiException.validationFailed(
          "groupOrder lists "
              + String.join(", ", missing)
              + ": no cluster the "
              + "subscription places on has "
              + groupBy
              + " set to "
              + (missing.size() == 1 ? "it" : "them"),
          errors);
    }
    return new Plan(
        sub,
        WavePlanner.plan(participants, request.strategy()),
        versions,
        paths,
        excluded,
        held,
        offline,
        unreachable,
        failing,
        participantLabels,
        placed > 0 && atTarget == placed);
  }

  /** The steps from {@code current} to {@code target}; empty when the target cannot be reached. */
  static Optional<JsonArray> path(ChannelGraph graph, String current, String target) {
    if (Version.tryParse(current)
        .map(v -> v.compareTo(Version.tryParse(target).orElseThrow()) == 0)
        .orElse(false)) {
      return Optional.of(new JsonArray());
    }
    try {
      JsonArray steps = UpgradePaths.compute(graph, current, target).getJsonArray("steps");
      if (steps.isEmpty()) {
        return Optional.empty();
      }
      String last = steps.getJsonObject(steps.size() - 1).getString("version");
      boolean reaches =
          Version.tryParse(last)
              .map(v -> v.compareTo(Version.tryParse(target).orElseThrow()) == 0)
              .orElse(false);
      return reaches ? Optional.of(steps) : Optional.empty();
    } catch (UpgradePaths.PathException e) {
      return Optional.empty();
    }
  }

  private Future<ChannelGraph> graph(SqlClient conn, Subscription sub) {
    String catalog = sub.spec().catalog();
    return catalogs
        .get(conn, catalog)
        .compose(
            found -> {
              if (found.isEmpty() || found.get().currentRevision() == null) {
                return Future.failedFuture(
                    ApiException.validationFailed(
                        "catalog " + catalog + " has no revision", new JsonArray()));
              }
              int revision = found.get().currentRevision();
              Future<String> channel =
                  sub.spec().channel() != null
                      ? Future.succeededFuture(sub.spec().channel())
                      : conn.preparedQuery(DEFAULT_CHANNEL)
                          .execute(Tuple.of(catalog, revision, sub.spec().packageName()))
                          .map(
                              rows ->
                                  rows.size() == 0 ? null : rows.iterator().next().getString(0));
              return channel
                  .compose(
                      ch ->
                          ch == null
                              ? Future.succeededFuture(Optional.<ChannelGraph>empty())
                              : graphs.graph(
                                  conn,
                                  catalog,
                                  revision,
                                  found.get().currentDigest(),
                                  sub.spec().packageName(),
                                  ch))
                  .map(
                      g ->
                          g.orElseThrow(
                              () ->
                                  ApiException.validationFailed(
                                      "the subscription's channel is not in "
                                          + "catalog "
                                          + catalog,
                                      new JsonArray())));
            });
  }
}
