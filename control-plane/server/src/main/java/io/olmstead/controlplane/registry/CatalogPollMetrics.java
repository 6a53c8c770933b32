package io.olmstead.controlplane.registry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catalog image polls as metrics. From PostgreSQL, the same on every replica whichever replica
 * polled (read every {@code refreshMillis} on a timer, never per scrape): {@code
 * olmstead_catalog_poll_error{catalog}} (1 while the catalog's last poll left a {@code lastError})
 * and {@code olmstead_catalog_poll_last_success_timestamp_seconds {catalog}} (0 when it never
 * polled without an error). Counted by this replica's poller: {@code
 * olmstead_catalog_poll_failures_total{catalog}}. Catalog names are bounded to {@value
 * #MAX_CATALOGS} label values, the rest fold into {@code other}.
 */
final class CatalogPollMetrics implements AutoCloseable {
  static final int MAX_CATALOGS = 100;
  private static final Logger LOG = LoggerFactory.getLogger(CatalogPollMetrics.class);
  private static final String READ =
      "SELECT name, last_error IS NOT NULL AS failing, "
          + "COALESCE(EXTRACT(EPOCH FROM last_success_at), 0)::float8 AS last_success FROM catalogs "
          + "WHERE source_image IS NOT NULL ORDER BY name LIMIT $1";
  // one read stays bounded however many catalogs there are
  private static final int READ_LIMIT = 10_000;

  private final Vertx vertx;
  private final Pool pool;
  private final MeterRegistry registry;
  private final BoundedLabel failureLabels = new BoundedLabel(MAX_CATALOGS);
  private final MultiGauge failing;
  private final MultiGauge lastSuccess;
  private final long timer;

  CatalogPollMetrics(Vertx vertx, Pool pool, MeterRegistry registry, long refreshMillis) {
    this.vertx = vertx;
    this.pool = pool;
    this.registry = registry;
    this.failing =
        MultiGauge.builder("olmstead.catalog.poll.error")
            .description("1 while the catalog's last image poll failed (lastError set)")
            .register(registry);
    this.lastSuccess =
        MultiGauge.builder("olmstead.catalog.poll.last.success.timestamp")
            .baseUnit("seconds")
            .description("When the catalog's image was last polled without an error (0: never)")
            .register(registry);
    this.timer =
        vertx.setPeriodic(
            1,
            refreshMillis,
            id ->
                refresh()
                    .onFailure(e -> LOG.debug("catalog poll gauges not read: {}", e.toString())));
  }

  /** A poll of {@code catalog} on this replica failed. */
  void failed(String catalog) {
    Counter.builder("olmstead.catalog.poll.failures")
        .tag("catalog", failureLabels.of(catalog))
        .description("Catalog image polls that failed on this replica")
        .register(registry)
        .increment();
  }

  /**
   * Reads every sourced catalog's poll state and sets the gauges; they keep their last rows when
   * the read fails.
   */
  Future<Void> refresh() {
    return pool.preparedQuery(READ)
        .execute(Tuple.of(READ_LIMIT))
        .map(
            rows -> {
              List<CatalogPollRows.Row> read = new ArrayList<>();
              rows.forEach(
                  r ->
                      read.add(
                          new CatalogPollRows.Row(
                              r.getString("name"),
                              r.getBoolean("failing"),
                              r.getDouble("last_success"))));
              List<CatalogPollRows.Row> folded = CatalogPollRows.fold(read, MAX_CATALOGS);
              failing.register(
                  folded.stream()
                      .map(
                          r ->
                              MultiGauge.Row.of(
                                  Tags.of("catalog", r.catalog()), r.failing() ? 1 : 0))
                      .toList(),
                  true);
              lastSuccess.register(
                  folded.stream()
                      .map(
                          r ->
                              MultiGauge.Row.of(
                                  Tags.of("catalog", r.catalog()), r.lastSuccessEpochSeconds()))
                      .toList(),
                  true);
              return null;
            });
  }

  @Override
  public void close() {
    vertx.cancelTimer(timer);
  }
}
