package io.olmstead.controlplane.upgradereadiness;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.clusters.Cluster;
import io.olmstead.controlplane.clusters.ClusterStore;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Blocker;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Candidate;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.ClusterVersion;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Installed;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Minor;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadinessStore.ClusterRow;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code GET /clusters/{name}/upgrade-readiness} (which operators block the cluster's next
 * OpenShift minor) and {@code GET /upgrade-readiness} (the fleet grouped by whether it can go to a
 * minor). Team-scoped callers see their teams' clusters only; an operator of a subscription of
 * another team placed on their cluster still counts, shown without its names.
 */
public final class UpgradeReadinessModule implements ApiModule {
  private static final Pattern MAJOR_MINOR = Pattern.compile("\\d{1,6}\\.\\d{1,6}");
  private final ClusterStore clusters = new ClusterStore();
  private final UpgradeReadinessStore store = new UpgradeReadinessStore();
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "getClusterUpgradeReadiness", this::cluster);
    ApiModule.bind(builder, "getFleetUpgradeReadiness", this::fleet);
  }

  private Future<Reply> cluster(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    return context
        .tx()
        .read(
            conn ->
                clusters
                    .find(conn, name)
                    .map(
                        found ->
                            caller.visible(
                                found,
                                c -> c.labelMap().get(Principal.TEAM_LABEL),
                                "no cluster " + name))
                    .compose(
                        c ->
                            store
                                .installed(conn, List.of(c.name()), caller)
                                .compose(
                                    installed ->
                                        store
                                            .candidates(conn, installed.values())
                                            .map(
                                                candidates ->
                                                    Reply.ok(
                                                        readiness(
                                                            c,
                                                            installed.getOrDefault(
                                                                c.name(), List.of()),
                                                            candidates))))));
  }

  private Future<Reply> fleet(ApiRequest request) {
    Principal caller = request.principal();
    // the raw text: the router types 4.10 as the number 4.1
    Optional<Minor> target =
        Optional.ofNullable(request.ctx().queryParams().get("version"))
            .map(
                v ->
                    Optional.of(v)
                        .filter(t -> MAJOR_MINOR.matcher(t).matches())
                        .flatMap(Minor::of)
                        .orElseThrow(
                            () ->
                                ApiException.badRequest(
                                    "version must be an OpenShift major.minor such as 4.18",
                                    "version")));
    return context
        .tx()
        .read(
            conn ->
                store
                    .clusters(conn, caller)
                    .compose(
                        rows ->
                            store
                                .installed(
                                    conn, rows.stream().map(ClusterRow::name).toList(), caller)
                                .compose(
                                    installed ->
                                        store
                                            .candidates(conn, installed.values())
                                            .map(
                                                candidates ->
                                                    Reply.ok(
                                                        fleet(
                                                            target,
                                                            rows,
                                                            installed,
                                                            candidates))))));
  }

  private static JsonObject readiness(
      Cluster c, List<Installed> installed, Map<String, List<Candidate>> candidates) {
    JsonObject out = new JsonObject().put("cluster", c.name()).put("operators", installed.size());
    Optional<ClusterVersion> version = UpgradeReadiness.version(c.labelMap(), c.facts());
    if (version.isEmpty()) {
      return out.put(
              "message",
              "no OpenShift version is known for cluster "
                  + c.name()
                  + " (not a HyperShift hosted cluster and its agent reports none)")
          .put("blocking", new JsonArray());
    }
    Minor target = Minor.of(version.get().version()).orElseThrow().next();
    List<Blocker> blockers = UpgradeReadiness.blockers(target, installed, candidates);
    return out.put("version", version.get().version())
        .put("versionSource", version.get().source())
        .put("target", target.toString())
        .put("upgradeable", blockers.isEmpty())
        .put("message", UpgradeReadiness.message(blockers))
        .put("blocking", json(blockers));
  }

  private static JsonObject fleet(
      Optional<Minor> requested,
      List<ClusterRow> rows,
      Map<String, List<Installed>> installed,
      Map<String, List<Candidate>> candidates) {
    JsonArray ready = new JsonArray();
    JsonArray blocked = new JsonArray();
    JsonArray atOrPast = new JsonArray();
    JsonArray unknown = new JsonArray();
    for (ClusterRow row : rows) {
      Map<String, String> labels = new HashMap<>();
      row.labels().forEach(e -> labels.put(e.getKey(), String.valueOf(e.getValue())));
      Optional<ClusterVersion> version = UpgradeReadiness.version(labels, row.facts());
      if (version.isEmpty()) {
        unknown.add(
            new JsonObject()
                .put("cluster", row.name())
                .put("reason", "no OpenShift version known"));
        continue;
      }
      Minor current = Minor.of(version.get().version()).orElseThrow();
      Minor target = requested.orElse(current.next());
      JsonObject entry =
          new JsonObject()
              .put("cluster", row.name())
              .put("version", version.get().version())
              .put("target", target.toString());
      if (current.compareTo(target) >= 0) {
        atOrPast.add(entry);
        continue;
      }
      List<Blocker> blockers =
          UpgradeReadiness.blockers(
              target, installed.getOrDefault(row.name(), List.of()), candidates);
      if (blockers.isEmpty()) {
        ready.add(entry);
      } else {
        blocked.add(entry.put("blocking", json(blockers)));
      }
    }
    return new JsonObject()
        .put("version", requested.map(Minor::toString).orElse(null))
        .put("ready", ready)
        .put("blocked", blocked)
        .put("atOrPast", atOrPast)
        .put("unknown", unknown);
  }

  private static JsonArray json(List<Blocker> blockers) {
    JsonArray out = new JsonArray();
    for (Blocker b : blockers) {
      Installed op = b.operator();
      JsonObject item = new JsonObject().put("maxOpenShiftVersion", op.maxOpenShiftVersion());
      if (op.visible()) {
        item.put("subscription", op.subscription())
            .put("namespace", op.namespace())
            .put("package", op.packageName())
            .put("bundle", op.bundle())
            .put("installedVersion", op.version())
            .put("unblockedBy", new JsonArray(b.unblockedBy()));
      } else {
        item.put(
            "hidden",
            true); // another team's subscription: it counts, its names stay with that team
      }
      out.add(item);
    }
    return out;
  }
}
