package io.olmstead.controlplane.subscription;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;

/**
 * Reads the signals the evaluator (package signals) stored for a subscription, for the
 * subscription's status.
 */
public final class StoredSignals {
  private static final String READ =
      "SELECT signals, evaluated_at FROM subscription_signals WHERE subscription = $1";

  private StoredSignals() {}

  /**
   * The subscription's stored signals with when they were computed; empty before the first pass.
   */
  public static Future<Optional<JsonObject>> read(SqlClient client, String subscription) {
    return client
        .preparedQuery(READ)
        .execute(Tuple.of(subscription))
        .map(
            rows -> {
              var it = rows.iterator();
              if (!it.hasNext()) {
                return Optional.empty();
              }
              Row row = it.next();
              return Optional.of(
                  row.getJsonObject(0)
                      .copy()
                      .put("evaluatedAt", row.getOffsetDateTime(1).toString()));
            });
  }
}
