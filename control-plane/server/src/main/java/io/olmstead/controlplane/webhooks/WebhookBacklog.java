package io.olmstead.controlplane.webhooks;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;

/**
 * The webhook backlog as gauges, read from PostgreSQL by the dispatcher's timers (reactive client,
 * never per scrape). The outbox: {@code olmstead_webhook_events_pending} (events raised and not yet
 * fanned out to deliveries, counted up to {@value #COUNT_CAP}) and {@code
 * olmstead_webhook_events_oldest_age_seconds} (how long the oldest of them has waited, 0 when there
 * is none), read after each fan-out: a fan-out that keeps up holds both near 0, a growing pair says
 * it does not (no replica's dispatcher running, or events raised faster than {@link
 * WebhookDispatcher#FAN_OUT_BATCHES} batches a tick drain). The deliveries, read every {@link
 * WebhookDispatcher#DELIVERY_BACKLOG_MILLIS}: {@code olmstead_webhook_deliveries_pending} (not
 * delivered yet: waiting, due or being retried), {@code olmstead_webhook_deliveries_due} (of those,
 * the ones whose attempt is due now) and {@code olmstead_webhook_deliveries_overdue_seconds} (how
 * long the longest-due one has waited for a sender, 0 when none is due). Every replica reads the
 * same tables, so they export the same values.
 */
final class WebhookBacklog {
  /** The counts stop here: read on every replica, they must not scan a huge backlog. */
  static final int COUNT_CAP = 100_000;

  // the oldest event by id (the primary key's index, one row) rather than min(created_at) (a scan
  // of the outbox);
  // the count reads at most COUNT_CAP rows
  private static final String EVENTS =
      "SELECT (SELECT count(*) FROM (SELECT 1 FROM webhook_events LIMIT "
          + COUNT_CAP
          + ") capped) AS pending, COALESCE(EXTRACT(EPOCH FROM now() - "
          + "(SELECT created_at FROM webhook_events ORDER BY id LIMIT 1)), 0)::float8 AS oldest";
  // both counts and the min read the partial indexes on Pending deliveries
  // (webhook_deliveries_pending, _due)
  private static final String DELIVERIES =
      "SELECT (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries "
          + "WHERE state = 'Pending' LIMIT "
          + COUNT_CAP
          + ") p) AS pending, (SELECT count(*) FROM (SELECT 1 FROM "
          + "webhook_deliveries WHERE state = 'Pending' AND next_attempt_at <= now() LIMIT "
          + COUNT_CAP
          + ") d) AS due, "
          + "GREATEST(0, COALESCE(EXTRACT(EPOCH FROM now() - (SELECT min(next_attempt_at) FROM webhook_deliveries "
          + "WHERE state = 'Pending')), 0))::float8 AS overdue";

  private final Pool pool;
  private volatile long pending;
  private volatile double oldestSeconds;
  private volatile long deliveriesPending;
  private volatile long deliveriesDue;
  private volatile double overdueSeconds;

  WebhookBacklog(Pool pool, MeterRegistry registry) {
    this.pool = pool;
    Gauge.builder("olmstead.webhook.events.pending", this, b -> b.pending)
        .description("Webhook events raised and not yet fanned out to deliveries")
        .register(registry);
    Gauge.builder("olmstead.webhook.events.oldest.age", this, b -> b.oldestSeconds)
        .baseUnit("seconds")
        .description(
            "How long the oldest webhook event not yet fanned out has waited (0 when none)")
        .register(registry);
    Gauge.builder("olmstead.webhook.deliveries.pending", this, b -> b.deliveriesPending)
        .description("Webhook deliveries not delivered yet (waiting, due or being retried)")
        .register(registry);
    Gauge.builder("olmstead.webhook.deliveries.due", this, b -> b.deliveriesDue)
        .description("Webhook deliveries whose attempt is due now")
        .register(registry);
    Gauge.builder("olmstead.webhook.deliveries.overdue", this, b -> b.overdueSeconds)
        .baseUnit("seconds")
        .description(
            "How long the longest-due webhook delivery has waited for a sender (0 when none is due)")
        .register(registry);
  }

  /** Reads the outbox once and sets its gauges; they keep their last value when the read fails. */
  Future<Void> refresh() {
    return pool.query(EVENTS)
        .execute()
        .map(
            rows -> {
              Row row = rows.iterator().next();
              pending = row.getLong("pending");
              oldestSeconds = Math.max(0, row.getDouble("oldest"));
              return null;
            });
  }

  /**
   * Reads the deliveries once and sets their gauges; they keep their last value when the read
   * fails.
   */
  Future<Void> refreshDeliveries() {
    return pool.query(DELIVERIES)
        .execute()
        .map(
            rows -> {
              Row row = rows.iterator().next();
              deliveriesPending = row.getLong("pending");
              deliveriesDue = row.getLong("due");
              overdueSeconds = row.getDouble("overdue");
              return null;
            });
  }
}
