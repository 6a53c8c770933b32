package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import java.util.List;

/**
 * The preview's {@code maturityDiff}: for each distinct version the rollout's clusters run (other
 * than the target), what the target's bundle changes in the maturity report ({@code introduced},
 * {@code resolved}; the same diff as {@code GET .../maturity-diff}). A version whose report cannot
 * be had says why in {@code unavailable}.
 */
final class MaturityDiffs {
  /** At most this many running versions are compared (a fleet rarely runs more). */
  static final int MAX_VERSIONS = 10;

  private final RolloutMaturity maturity;

  MaturityDiffs(RolloutMaturity maturity) {
    this.maturity = maturity;
  }

  Future<JsonArray> fromRunning(SqlClient client, RolloutPlanLoader.Plan plan, String target) {
    SubscriptionSpec spec = plan.subscription().spec();
    Version to = Version.tryParse(target).orElseThrow();
    List<String> running =
        plan.fromVersions().stream()
            .filter(v -> Version.tryParse(v).map(p -> p.compareTo(to) != 0).orElse(false))
            .limit(MAX_VERSIONS)
            .toList();
    JsonArray out = new JsonArray();
    if (running.isEmpty()) {
      return Future.succeededFuture(out);
    }
    return maturity
        .bundle(client, spec, target)
        .compose(
            toBundle -> {
              Future<JsonArray> chain = Future.succeededFuture(out);
              for (String from : running) {
                JsonObject entry =
                    new JsonObject().put("fromVersion", from).put("toVersion", target);
                chain =
                    chain.compose(
                        arr ->
                            maturity
                                .bundle(client, spec, from)
                                .compose(
                                    fromBundle -> {
                                      if (fromBundle.isEmpty() || toBundle.isEmpty()) {
                                        return Future.succeededFuture(
                                            entry.put(
                                                "unavailable",
                                                "no bundle of version "
                                                    + (toBundle.isEmpty() ? target : from)
                                                    + " in the catalog's current revision"));
                                      }
                                      return maturity
                                          .service()
                                          .diffJson(
                                              spec.catalog(),
                                              spec.packageName(),
                                              fromBundle.get(),
                                              toBundle.get())
                                          .map(diff -> entry.mergeIn(diff))
                                          .recover(
                                              e ->
                                                  Future.succeededFuture(
                                                      entry.put("unavailable", e.getMessage())));
                                    })
                                .map(arr::add));
              }
              return chain;
            });
  }
}
