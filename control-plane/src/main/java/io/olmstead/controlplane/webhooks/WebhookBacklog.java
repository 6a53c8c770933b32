package io.olmstead.controlplane.webhooks;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;

/**
 * The outbox's backlog as gauges: {@code olmstead_webhook_events_pending} (events raised and not yet fanned out to
 * deliveries, counted up to {@value #COUNT_CAP}) and {@code olmstead_webhook_events_oldest_age_seconds} (how long the oldest of them has waited, 0 when
 * there is none). Read by one statement after each fan-out on the dispatcher's timer (reactive client, no JDBC on the
 * event loop): a fan-out that keeps up holds both near 0, a growing pair says it does not (no replica's dispatcher
 * running, or events raised faster than {@link WebhookDispatcher#FAN_OUT_BATCHES} batches a tick drain).
 */
final class WebhookBacklog {
  /** The count stops here: read every second on every replica, it must not scan a huge backlog. */
  static final int COUNT_CAP = 100_000;
  // the oldest event by id (the primary key's index, one row) rather than min(created_at) (a scan of the outbox);
  // the count reads at most COUNT_CAP rows
  private static final String BACKLOG = "SELECT (SELECT count(*) FROM (SELECT 1 FROM webhook_events LIMIT "
      + COUNT_CAP + ") capped) AS pending, COALESCE(EXTRACT(EPOCH FROM now() - "
      + "(SELECT created_at FROM webhook_events ORDER BY id LIMIT 1)), 0)::float8 AS oldest";

  private final Pool pool;
  private volatile long pending;
  private volatile double oldestSeconds;

  WebhookBacklog(Pool pool, MeterRegistry registry) {
    this.pool = pool;
    Gauge.builder("olmstead.webhook.events.pending", this, b -> b.pending)
        .description("Webhook events raised and not yet fanned out to deliveries").register(registry);
    Gauge.builder("olmstead.webhook.events.oldest.age", this, b -> b.oldestSeconds).baseUnit("seconds")
        .description("How long the oldest webhook event not yet fanned out has waited (0 when none)")
        .register(registry);
  }

  /** Reads the backlog once and sets both gauges; they keep their last value when the read fails. */
  Future<Void> refresh() {
    return pool.query(BACKLOG).execute().map(rows -> {
      Row row = rows.iterator().next();
      pending = row.getLong("pending");
      oldestSeconds = Math.max(0, row.getDouble("oldest"));
      return null;
    });
  }
}
