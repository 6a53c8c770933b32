package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Refuses a subscription whose placement can overlap another's for the same package and namespace
 * ({@link PlacementOverlap}) with 409 naming the other. Checked inside the writing transaction,
 * under a transaction advisory lock on the package and namespace, so two concurrent writes cannot
 * both pass.
 */
final class SubscriptionConflicts {
  private static final String LOCK =
      "SELECT pg_advisory_xact_lock(hashtext('olmstead.subscription/' || $1 || '/' || $2))";
  private static final String LABELS = "SELECT name, labels FROM clusters WHERE name = ANY($1)";

  private final SubscriptionStore store = new SubscriptionStore();

  /**
   * Fails with 409 when {@code spec} can overlap another subscription; one {@code caller} may not
   * see is not named.
   */
  Future<Void> check(SqlConnection tx, SubscriptionSpec spec, Principal caller) {
    return tx.preparedQuery(LOCK)
        .execute(Tuple.of(spec.packageName(), spec.namespace()))
        .compose(v -> store.sameTarget(tx, spec.packageName(), spec.namespace(), spec.name()))
        .map(found -> found.stream().map(Subscription::spec).toList())
        .compose(
            others -> {
              if (others.isEmpty()) {
                return Future.succeededFuture();
              }
              return labels(tx, spec, others)
                  .map(
                      labels -> {
                        for (SubscriptionSpec other : others) {
                          Optional<String> why = PlacementOverlap.between(spec, other, labels);
                          if (why.isPresent()) {
                            boolean visible = caller.mayAccessTeam(other.team());
                            String name = visible ? other.name() : "(of another team)";
                            String detail =
                                "subscription "
                                    + name
                                    + " already installs package "
                                    + spec.packageName()
                                    + " in namespace "
                                    + spec.namespace()
                                    + " and its placement can "
                                    + "overlap this one ("
                                    + (visible ? why.get() : "placements overlap")
                                    + "); two subscriptions "
                                    + "may not own one operator on a cluster: change the placement or the namespace";
                            throw new ApiException(
                                409,
                                "conflict",
                                "Conflict",
                                detail,
                                new JsonArray()
                                    .add(
                                        new JsonObject()
                                            .put("field", "/placement")
                                            .put("message", "overlaps subscription " + name)));
                          }
                        }
                        return null;
                      });
            });
  }

  /** The current labels of the clusters {@code spec} or {@code others} name. */
  static Future<Map<String, Map<String, String>>> labels(
      SqlConnection tx, SubscriptionSpec spec, List<SubscriptionSpec> others) {
    List<String> named = new ArrayList<>(spec.placement().clusters());
    others.forEach(o -> named.addAll(o.placement().clusters()));
    return tx.preparedQuery(LABELS)
        .execute(Tuple.of(named.stream().distinct().toArray(String[]::new)))
        .map(
            rows -> {
              Map<String, Map<String, String>> labels = new HashMap<>();
              for (Row r : rows) {
                Map<String, String> l = new HashMap<>();
                JsonObject json = r.getJsonObject("labels");
                if (json != null) {
                  json.forEach(e -> l.put(e.getKey(), String.valueOf(e.getValue())));
                }
                labels.put(r.getString("name"), l);
              }
              return labels;
            });
  }
}
