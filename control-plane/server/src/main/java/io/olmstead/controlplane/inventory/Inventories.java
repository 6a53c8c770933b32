package io.olmstead.controlplane.inventory;

import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.controlplane.http.ApiModule;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inventory component: takes agents' inventory reports (from the agent gateway), serves the
 * REST reads and keeps the fleet gauges current (refreshed from the store every {@link
 * #METRICS_REFRESH_MILLIS}).
 */
public final class Inventories {
  private static final Logger LOG = LoggerFactory.getLogger(Inventories.class);

  /** At most one stored report per cluster in this window; agents send at most every 60 s. */
  public static final long WINDOW_MILLIS = 5_000;

  static final long METRICS_REFRESH_MILLIS = 60_000;

  private final Vertx vertx;
  private final Pool pool;
  private final InventoryStore store = new InventoryStore();
  private final InventoryMetrics metrics;
  private final InventoryIngestor ingestor;
  private long timer = -1;

  public Inventories(Vertx vertx, Pool pool, MeterRegistry registry) {
    this.vertx = vertx;
    this.pool = pool;
    this.metrics = new InventoryMetrics(registry);
    this.ingestor = new InventoryIngestor(vertx, pool, store, metrics, WINDOW_MILLIS);
  }

  public ApiModule module() {
    return new InventoryModule(store);
  }

  /**
   * Takes a schema-valid report of {@code cluster}: what the agent gateway calls for every
   * inventory message.
   */
  public void submit(String cluster, Inventory inventory) {
    ingestor.submit(cluster, inventory);
  }

  public Future<Void> start() {
    timer = vertx.setPeriodic(1_000, METRICS_REFRESH_MILLIS, id -> refreshMetrics());
    return Future.succeededFuture();
  }

  /** Reads the fleet aggregates into the gauges (also a test hook). */
  public Future<Void> refreshMetrics() {
    return pool.withConnection(
            conn ->
                store
                    .customResourcesByCrd(conn, InventoryMetrics.MAX_CRD_SERIES)
                    .compose(
                        byCrd ->
                            store
                                .totalsByPackage(conn, InventoryMetrics.MAX_PACKAGE_SERIES)
                                .map(
                                    byPackage -> {
                                      metrics.fleet(byCrd, byPackage);
                                      return (Void) null;
                                    })))
        .onFailure(e -> LOG.warn("inventory metrics not refreshed: {}", e.toString()));
  }

  public Future<Void> close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    return Future.succeededFuture();
  }
}
