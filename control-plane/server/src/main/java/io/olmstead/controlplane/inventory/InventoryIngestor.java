package io.olmstead.controlplane.inventory;

import io.olmstead.apispec.protocol.Inventory;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores inventory reports: at most one per cluster every {@code windowMillis}; a report arriving
 * within the window waits, and a newer one replaces it (only the newest matters, each replaces the
 * cluster's inventory), so a misbehaving agent costs one write per window and one report's memory.
 * Absurd reports ({@link InventoryCheck}) are ignored. Its state lives on one context.
 */
final class InventoryIngestor {
  private static final Logger LOG = LoggerFactory.getLogger(InventoryIngestor.class);

  private final Vertx vertx;
  private final Context context;
  private final Pool pool;
  private final InventoryStore store;
  private final InventoryMetrics metrics;
  private final long windowMillis;
  // A cluster has a slot from its write until its window ends; the slot holds the report waiting,
  // if any.
  private final Map<String, Slot> slots = new HashMap<>();

  private static final class Slot {
    Inventory waiting;
  }

  InventoryIngestor(
      Vertx vertx, Pool pool, InventoryStore store, InventoryMetrics metrics, long windowMillis) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.pool = pool;
    this.store = store;
    this.metrics = metrics;
    this.windowMillis = windowMillis;
  }

  /** Takes a schema-valid report of {@code cluster} (from any thread). */
  void submit(String cluster, Inventory inventory) {
    String refusal = InventoryCheck.refusal(inventory);
    if (refusal != null) {
      metrics.report("refused");
      LOG.info("cluster {}: inventory ignored: {}", cluster, refusal);
      return;
    }
    context.runOnContext(
        v -> {
          Slot slot = slots.get(cluster);
          if (slot == null) {
            slot = new Slot();
            slots.put(cluster, slot);
            write(cluster, inventory, slot);
          } else {
            if (slot.waiting != null) {
              metrics.report("coalesced");
            }
            slot.waiting = inventory;
          }
        });
  }

  private void write(String cluster, Inventory inventory, Slot slot) {
    pool.withTransaction(tx -> store.replace(tx, cluster, inventory))
        .onComplete(
            ar ->
                context.runOnContext(
                    v -> {
                      if (ar.succeeded()) {
                        metrics.report(ar.result() ? "stored" : "unchanged");
                      } else {
                        // a deleted cluster (foreign key) or a database outage: the agent's next
                        // report replaces it anyway
                        metrics.report("failed");
                        LOG.warn(
                            "cluster {}: inventory not stored: {}", cluster, ar.cause().toString());
                      }
                      vertx.setTimer(
                          windowMillis,
                          id ->
                              context.runOnContext(
                                  w -> {
                                    Inventory next = slot.waiting;
                                    if (next == null) {
                                      slots.remove(cluster);
                                    } else {
                                      slot.waiting = null;
                                      write(cluster, next, slot);
                                    }
                                  }));
                    }));
  }
}
