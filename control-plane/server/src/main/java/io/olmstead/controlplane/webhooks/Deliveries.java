package io.olmstead.controlplane.webhooks;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * The dispatcher's statements on {@code webhook_events} and {@code webhook_deliveries}. The fan-out
 * turns events (one row each, written by the transaction that raised them) into one delivery per
 * matching webhook of the event's team or of no team, on one replica at a time (V32's {@code
 * olmstead_webhook_fan_out}). A claim leases due deliveries for {@link #LEASE_SECONDS} (moving
 * {@code next_attempt_at} ahead) under {@code FOR UPDATE SKIP LOCKED}, so each is sent by one
 * replica at a time; a replica that dies mid-send leaves the lease to expire and another sends it
 * again (at least once).
 */
final class Deliveries {
  static final int LEASE_SECONDS = 120;
  static final int MAX_ATTEMPTS = 8;
  static final int MAX_PENDING_PER_WEBHOOK = 10_000;
  static final int FAN_OUT_BATCH = 1_000;
  private static final String FAN_OUT =
      "SELECT events, deliveries FROM olmstead_webhook_fan_out($1)";
  // at most PER_WEBHOOK due deliveries of each webhook, none of a webhook this replica already has
  // at its cap ($2):
  // one receiver's slowness costs its own deliveries, not everyone's. The rows are picked and
  // locked once, in a CTE
  // (run once, whatever the plan): as a subquery of the UPDATE, PostgreSQL may run the locking scan
  // again while it
  // updates, and each run skipped the rows this statement had already updated and locked the next
  // due ones, so one
  // claim took more than $1 rows (DeliveryClaimBoundsIT). "Due and not leased" stands at the level
  // that
  // locks: under READ COMMITTED, FOR UPDATE re-evaluates that level's own conditions on the newest
  // version of a row
  // it had to wait for or found changed, so a claim whose snapshot predates another claim's commit
  // skips its rows
  private static final String DUE = "state = 'Pending' AND next_attempt_at <= now()";
  private static final String CLAIM =
      "WITH picked AS MATERIALIZED (SELECT id FROM webhook_deliveries WHERE "
          + DUE
          + " AND id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY webhook_id "
          + "ORDER BY next_attempt_at, id) AS n FROM webhook_deliveries WHERE "
          + DUE
          + " "
          + "AND NOT (webhook_id = ANY($2))) due WHERE due.n <= "
          + WebhookDispatcher.PER_WEBHOOK
          + ") "
          + "ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) "
          + "UPDATE webhook_deliveries d SET attempts = d.attempts + 1, "
          + "next_attempt_at = now() + make_interval(secs => "
          + LEASE_SECONDS
          + ") FROM picked p, webhooks w "
          + "WHERE d.id = p.id AND d.webhook_id = w.id "
          + "RETURNING d.id, d.webhook_id, w.name, w.team, d.body, d.attempts, w.url, w.secret";
  // a failed attempt holds the webhook's other pending deliveries back as long as its own retry (a
  // dead receiver is
  // tried once per backoff period, not once per queued event)
  private static final String HOLD_BACK =
      "UPDATE webhook_deliveries SET next_attempt_at = GREATEST(next_attempt_at, "
          + "now() + make_interval(secs => $2)) WHERE webhook_id = $1 AND state = 'Pending' AND id <> $3";
  private static final String DELIVERED =
      "UPDATE webhook_deliveries SET state = 'Delivered', last_status = $2, "
          + "last_error = NULL, finished_at = now() WHERE id = $1";
  private static final String FAILED_ATTEMPT =
      "UPDATE webhook_deliveries SET last_status = $2, last_error = $3, "
          + "state = CASE WHEN attempts >= "
          + MAX_ATTEMPTS
          + " THEN 'Failed' ELSE 'Pending' END, "
          + "finished_at = CASE WHEN attempts >= "
          + MAX_ATTEMPTS
          + " THEN now() END, "
          + "next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1 RETURNING state";
  // keeps the newest MAX_PENDING_PER_WEBHOOK pending deliveries of each webhook; deletes what
  // finished a week ago
  private static final String DROP_EXCESS =
      "UPDATE webhook_deliveries SET state = 'Dropped', finished_at = now() "
          + "WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY webhook_id ORDER BY id DESC) AS n "
          + "FROM webhook_deliveries WHERE state = 'Pending') p WHERE p.n > "
          + MAX_PENDING_PER_WEBHOOK
          + ")";
  private static final String EXPIRE =
      "DELETE FROM webhook_deliveries WHERE state <> 'Pending' "
          + "AND finished_at < now() - interval '7 days'";

  /**
   * One leased delivery with what sending it needs; {@code webhook} names it for logs (team/name).
   */
  record Claimed(
      long id,
      long webhookId,
      String webhook,
      String body,
      int attempt,
      String url,
      String secret) {
    @Override
    public String toString() {
      return "Claimed[id=" + id + ", webhook=" + webhook + ", attempt=" + attempt + "]";
    }
  }

  private final Pool pool;

  Deliveries(Pool pool) {
    this.pool = pool;
  }

  /**
   * What one fan-out did: events taken from the outbox, deliveries queued (both 0 when another
   * replica held it).
   */
  record FannedOut(int events, int deliveries) {}

  /**
   * Moves at most {@code batch} of the oldest events to deliveries, in one short transaction of its
   * own.
   */
  Future<FannedOut> fanOut(int batch) {
    return pool.preparedQuery(FAN_OUT)
        .execute(Tuple.of(batch))
        .map(
            rows -> {
              var row = rows.iterator().next();
              Integer events = row.getInteger("events");
              return events == null
                  ? new FannedOut(0, 0)
                  : new FannedOut(events, row.getInteger("deliveries"));
            });
  }

  Future<List<Claimed>> claim(int max, List<Long> busyWebhooks) {
    Tuple args = Tuple.tuple().addInteger(max).addArrayOfLong(busyWebhooks.toArray(new Long[0]));
    return pool.preparedQuery(CLAIM)
        .execute(args)
        .map(
            rows -> {
              List<Claimed> out = new ArrayList<>(rows.size());
              rows.forEach(
                  r ->
                      out.add(
                          new Claimed(
                              r.getLong("id"),
                              r.getLong("webhook_id"),
                              (r.getString("team") == null ? "" : r.getString("team") + "/")
                                  + r.getString("name"),
                              r.getString("body"),
                              r.getInteger("attempts"),
                              r.getString("url"),
                              r.getString("secret"))));
              return out;
            });
  }

  Future<Void> delivered(long id, int status) {
    return pool.preparedQuery(DELIVERED).execute(Tuple.of(id, status)).mapEmpty();
  }

  /**
   * Records a failed attempt; answers whether the delivery gave up (Failed) rather than waits to
   * retry.
   */
  Future<Boolean> failedAttempt(
      long id, long webhookId, Integer status, String error, int attempt) {
    return pool.preparedQuery(FAILED_ATTEMPT)
        .execute(Tuple.of(id, status, error, backoffSeconds(attempt)))
        .map(
            rows ->
                rows.iterator().hasNext() && "Failed".equals(rows.iterator().next().getString(0)))
        .compose(
            gaveUp ->
                pool.preparedQuery(HOLD_BACK)
                    .execute(Tuple.of(webhookId, backoffSeconds(attempt), id))
                    .map(gaveUp));
  }

  Future<Void> sweep() {
    return pool.query(DROP_EXCESS).execute().compose(v -> pool.query(EXPIRE).execute()).mapEmpty();
  }

  /**
   * 2, 4, 8 ... seconds after each failed attempt, at most 10 minutes (8 attempts span about 8.5
   * minutes).
   */
  static long backoffSeconds(int attempt) {
    return Math.min(600L, 1L << Math.min(Math.max(attempt, 1), 20));
  }
}
