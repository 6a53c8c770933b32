package io.olmstead.controlplane.agentgateway;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/**
 * Takes one use of an enrollment token inside the enrollment's transaction: a row in {@code
 * enrollment_token_uses} holding one of the token's {@code max_uses} numbered slots. The primary
 * key admits at most {@code max_uses} uses; enrollments with one token take different slots, so
 * they wait on each other only when two pick the same free slot at once (then the second looks
 * again), never on a shared counter row.
 */
final class TokenUses {
  // From a random slot upwards, then from 1: the first free slot is near where the search starts
  // until the token fills up, so concurrent enrollments seldom try the same one. "free" counts
  // what the statement's snapshot saw: a slot taken meanwhile (the insert found it taken) is
  // looked for again; none free is a token used up.
  private static final String CLAIM =
      "WITH t AS (SELECT id, max_uses, 1 + floor(random() * max_uses)::int AS start "
          + "FROM enrollment_tokens WHERE id = $1::uuid), "
          + "free AS (SELECT c.s FROM t, LATERAL (SELECT generate_series(t.start, t.max_uses) "
          + "UNION ALL SELECT generate_series(1, t.start - 1)) AS c(s) WHERE NOT EXISTS "
          + "(SELECT 1 FROM enrollment_token_uses u WHERE u.token_id = t.id AND u.slot = c.s) LIMIT 1), "
          + "taken AS (INSERT INTO enrollment_token_uses (token_id, slot, cluster) "
          + "SELECT $1::uuid, s, $2 FROM free ON CONFLICT DO NOTHING RETURNING slot) "
          + "SELECT (SELECT count(*) FROM free) AS free, (SELECT slot FROM taken) AS slot";
  // Shares the token row until commit: a revocation or expiry committed meanwhile refuses this
  // enrollment, and one that comes later waits for it; enrollments share it without waiting.
  private static final String STILL_LIVE =
      "SELECT 1 FROM enrollment_tokens WHERE id = $1::uuid AND revoked_at IS NULL "
          + "AND expires_at > now() FOR SHARE";
  // Each round that finds no slot lost it to an enrollment that committed it: a bound that only a
  // token with that many enrollments racing for its last slots could reach.
  static final int MAX_ROUNDS = 1000;

  private TokenUses() {}

  /** True when a use was taken, false when the token is used up, revoked or expired. */
  static Future<Boolean> take(SqlConnection tx, String tokenId, String cluster) {
    return claim(tx, tokenId, cluster, 1)
        .compose(
            taken ->
                taken
                    ? tx.preparedQuery(STILL_LIVE)
                        .execute(Tuple.of(tokenId))
                        .map(rows -> rows.size() == 1)
                    : Future.succeededFuture(false));
  }

  private static Future<Boolean> claim(
      SqlConnection tx, String tokenId, String cluster, int round) {
    return tx.preparedQuery(CLAIM)
        .execute(Tuple.of(tokenId, cluster))
        .compose(
            rows -> {
              Row row = rows.iterator().next();
              if (row.getInteger("slot") != null) {
                return Future.succeededFuture(true);
              }
              if (row.getLong("free") == 0) {
                return Future.succeededFuture(false);
              }
              return round < MAX_ROUNDS
                  ? claim(tx, tokenId, cluster, round + 1)
                  : Future.failedFuture(
                      new IllegalStateException(
                          "no enrollment-token slot after " + round + " rounds"));
            });
  }
}
