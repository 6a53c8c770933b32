package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.maturity.KubeVersions;
import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The maturity policy's part of a subscription's status: {@code blockedReason} and {@code heldAt}
 * when the policy holds it below where its version policy leads (computed as the agents' desired
 * state is, {@link MaturityHold}), and {@code removedApiClusters}: the placed clusters whose
 * reported Kubernetes version removed an API the target bundle uses (they are held below it),
 * counted, the first {@link #MAX_LISTED} by name listed.
 */
final class PolicyStatus {
  /**
   * At most this many clusters listed in {@code removedApiClusters.items}; {@code count} says how
   * many in all.
   */
  static final int MAX_LISTED = 100;

  /** Distinct reported Kubernetes versions read (a fleet reports few). */
  static final int MAX_VERSIONS = 1000;

  /** At most this many removed APIs named per cluster. */
  static final int MAX_APIS = 20;

  private final HoldReports reports;
  private final PlacementQueries placements = new PlacementQueries();

  PolicyStatus(HoldReports reports) {
    this.reports = reports;
  }

  /**
   * The status fields of {@code s}; the team filter is the placement's (a team's subscription, its
   * clusters).
   */
  Future<JsonObject> of(SqlClient conn, Subscription s) {
    SubscriptionSpec spec = s.spec();
    return CatalogViews.forPackage(conn, spec.catalog(), spec.packageName())
        .compose(
            view -> {
              if (view.isEmpty()) {
                return Future.succeededFuture(json(null, null, new JsonObject()));
              }
              CatalogView catalog = view.get();
              return reports
                  .load(conn, List.of(s), Map.of(catalog.name(), catalog))
                  .compose(
                      r -> {
                        ComputedSubscription d = DesiredState.resolve(s, catalog, r, null);
                        Optional<String> target =
                            catalog
                                .pkg(spec.packageName())
                                .flatMap(p -> p.channel(spec.channel()))
                                .flatMap(ch -> bundleAt(ch, d.maxVersion()));
                        String heldAt =
                            d.blockedReason() != null && d.maxVersion() != null
                                ? target.orElse(null)
                                : null;
                        JsonObject report =
                            target
                                .map(b -> r.report(catalog.name(), spec.packageName(), b))
                                .orElse(null);
                        if (!KubeVersions.usesRemovedApis(report)) {
                          return Future.succeededFuture(
                              json(
                                  d.blockedReason(),
                                  heldAt,
                                  removedApiClusters(report, Map.of(), Map.of())));
                        }
                        return placements
                            .kubeVersions(conn, spec, MAX_VERSIONS)
                            .compose(
                                counts -> {
                                  Set<String> hit = new LinkedHashSet<>();
                                  counts
                                      .keySet()
                                      .forEach(
                                          v -> {
                                            if (!KubeVersions.removedFor(report, v).isEmpty()) {
                                              hit.add(v);
                                            }
                                          });
                                  return (hit.isEmpty()
                                          ? Future.succeededFuture(Map.<String, String>of())
                                          : placements.withKubeVersions(
                                              conn, spec, hit, MAX_LISTED))
                                      .map(
                                          listed ->
                                              json(
                                                  d.blockedReason(),
                                                  heldAt,
                                                  removedApiClusters(report, counts, listed)));
                                });
                      });
            });
  }

  /**
   * {@code {count, items}} (pure): {@code counts} the placed clusters per reported version, {@code
   * listed} the clusters to list (name to version, in order).
   */
  static JsonObject removedApiClusters(
      JsonObject report, Map<String, Long> counts, Map<String, String> listed) {
    long count = 0;
    Map<String, JsonArray> apis = new TreeMap<>();
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      JsonArray found = new JsonArray();
      for (JsonObject f : KubeVersions.removedFor(report, e.getKey())) {
        if (found.size() < MAX_APIS) {
          found.add(f.getString("message"));
        }
      }
      if (!found.isEmpty()) {
        count += e.getValue();
        apis.put(e.getKey(), found);
      }
    }
    JsonArray items = new JsonArray();
    listed.forEach(
        (cluster, version) -> {
          if (apis.containsKey(version)) {
            items.add(
                new JsonObject()
                    .put("cluster", cluster)
                    .put("kubernetesVersion", version)
                    .put("apis", apis.get(version).copy()));
          }
        });
    return new JsonObject().put("count", count).put("items", items);
  }

  private static Optional<String> bundleAt(ChannelView channel, String version) {
    return Optional.ofNullable(version)
        .flatMap(Version::tryParse)
        .flatMap(channel::bundleWithVersion);
  }

  private static JsonObject json(String blockedReason, String heldAt, JsonObject removed) {
    if (removed.isEmpty()) {
      removed = new JsonObject().put("count", 0L).put("items", new JsonArray());
    }
    return new JsonObject()
        .put("blockedReason", blockedReason)
        .put("heldAt", heldAt)
        .put("removedApiClusters", removed);
  }
}
