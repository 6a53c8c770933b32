package io.olmstead.controlplane.signals;

import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.olmstead.olmcore.fbc.Deprecation;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL of the signals: what the evaluation reads about one subscription (the package's deprecations
 * in the catalog's current revision, installed versions and stuck clusters from its status), the
 * stored signals, and the outbox. Status rows count only when they are not gone and, for a team's
 * subscription, come from that team's clusters.
 */
public final class SignalStore {
  private static final String OWNED =
      " AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM clusters c "
          + "WHERE c.name = s.cluster AND c.labels ->> '"
          + SubscriptionSpec.TEAM_LABEL
          + "' = $2))";
  private static final String DEPRECATIONS =
      "SELECT p.deprecations FROM catalogs c JOIN catalog_packages p "
          + "ON p.catalog = c.name AND p.revision = c.current_revision WHERE c.name = $1 AND p.package = $2";
  private static final String INSTALLED =
      "SELECT s.installed_version, s.installed_bundle, count(*) "
          + "FROM subscription_status s WHERE s.subscription = $1 AND NOT s.gone"
          + OWNED
          + " GROUP BY s.installed_version, s.installed_bundle";
  // waiting for a person (RequiresApproval) is not stuck
  private static final String STUCK_WHERE =
      " FROM subscription_status s WHERE s.subscription = $1 AND NOT s.gone"
          + OWNED
          + " AND s.unsucceeded_since < now() - make_interval(secs => $3) "
          + "AND s.phase IS DISTINCT FROM 'RequiresApproval'";
  private static final String STUCK =
      "SELECT s.cluster" + STUCK_WHERE + " ORDER BY s.cluster LIMIT $4";
  private static final String STUCK_COUNT = "SELECT count(*)" + STUCK_WHERE;
  private static final String PREVIOUS =
      "SELECT signals FROM subscription_signals WHERE subscription = $1";
  private static final String UPSERT =
      "INSERT INTO subscription_signals (subscription, team, signals) "
          + "VALUES ($1, $2, $3) ON CONFLICT (subscription) DO UPDATE SET team = EXCLUDED.team, "
          + "signals = EXCLUDED.signals, evaluated_at = now()";
  private static final String ENQUEUE = "SELECT olmstead_webhook_enqueue($1, $2, $3, $4)";

  /**
   * The package's {@code olm.deprecations} entries in the catalog's current revision (none when not
   * indexed).
   */
  Future<List<Deprecation.Entry>> deprecations(
      SqlClient client, String catalog, String packageName) {
    return client
        .preparedQuery(DEPRECATIONS)
        .execute(Tuple.of(catalog, packageName))
        .map(
            rows -> {
              List<Deprecation.Entry> out = new ArrayList<>();
              for (Row row : rows) {
                Object value = row.getValue(0);
                JsonArray entries = value instanceof JsonArray a ? a : new JsonArray();
                entries.forEach(
                    o -> {
                      JsonObject e = (JsonObject) o;
                      out.add(
                          new Deprecation.Entry(
                              e.getString("schema"), e.getString("name"), e.getString("message")));
                    });
              }
              return out;
            });
  }

  Future<List<Signals.Installed>> installed(SqlClient client, SubscriptionSpec spec) {
    return client
        .preparedQuery(INSTALLED)
        .execute(Tuple.of(spec.name(), spec.team()))
        .map(
            rows -> {
              List<Signals.Installed> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(new Signals.Installed(r.getString(0), r.getString(1), r.getLong(2))));
              return out;
            });
  }

  /** The first {@code limit} stuck clusters by name. */
  Future<List<String>> stuck(SqlClient client, SubscriptionSpec spec, Duration after, int limit) {
    return client
        .preparedQuery(STUCK)
        .execute(Tuple.of(spec.name(), spec.team(), seconds(after), limit))
        .map(
            rows -> {
              List<String> out = new ArrayList<>();
              rows.forEach(r -> out.add(r.getString(0)));
              return out;
            });
  }

  Future<Long> stuckCount(SqlClient client, SubscriptionSpec spec, Duration after) {
    return client
        .preparedQuery(STUCK_COUNT)
        .execute(Tuple.of(spec.name(), spec.team(), seconds(after)))
        .map(rows -> rows.iterator().next().getLong(0));
  }

  Future<Optional<JsonObject>> previous(SqlClient client, String subscription) {
    return client
        .preparedQuery(PREVIOUS)
        .execute(Tuple.of(subscription))
        .map(
            rows -> {
              var it = rows.iterator();
              return it.hasNext()
                  ? Optional.ofNullable(it.next().getJsonObject(0))
                  : Optional.empty();
            });
  }

  Future<Void> save(SqlClient client, SubscriptionSpec spec, JsonObject signals) {
    return client
        .preparedQuery(UPSERT)
        .execute(Tuple.of(spec.name(), spec.team(), signals))
        .mapEmpty();
  }

  /**
   * Queues {@code body} for every matching webhook of {@code team} (or of no team) in the caller's
   * transaction.
   */
  public static Future<Void> enqueue(
      SqlClient client, String type, String team, String subject, JsonObject body) {
    return client
        .preparedQuery(ENQUEUE)
        .execute(Tuple.of(type, team, subject, body.encode()))
        .mapEmpty();
  }

  private static double seconds(Duration d) {
    return d.toMillis() / 1000.0;
  }
}
