package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Re-checks the API tokens behind open event streams: a stream lives only as long as its token
 * stays live and unchanged. One query for all open streams' tokens, on the async pool (never
 * blocking an event loop).
 */
final class StreamTokens {
  private static final String LIVE =
      "SELECT id, role, teams FROM api_tokens WHERE id = ANY($1) AND revoked_at IS NULL";

  private final Pool pool;

  StreamTokens(Pool pool) {
    this.pool = pool;
  }

  /** The live tokens among {@code ids}, each as its role and teams now. */
  Future<Map<UUID, Grant>> live(Collection<UUID> ids) {
    return pool.preparedQuery(LIVE)
        .execute(Tuple.of(ids.toArray(new UUID[0])))
        .map(
            rows -> {
              Map<UUID, Grant> live = new HashMap<>();
              for (Row row : rows) {
                String[] teams = row.getArrayOfStrings("teams");
                live.put(
                    row.getUUID("id"),
                    new Grant(row.getString("role"), teams == null ? List.of() : List.of(teams)));
              }
              return live;
            });
  }

  /** What a token grants: a stream whose caller no longer matches it is closed. */
  record Grant(String role, List<String> teams) {
    boolean matches(Principal caller) {
      return role.equals(caller.role().wireName()) && teams.equals(caller.teams());
    }
  }
}
