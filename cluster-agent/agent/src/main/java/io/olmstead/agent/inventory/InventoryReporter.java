package io.olmstead.agent.inventory;

import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.apispec.protocol.Inventory;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects the inventory every {@code interval} ({@link #INTERVAL}, 60 s, in a real agent) and
 * hands it to the sink only when it differs from the last one handed over; so at most one report
 * per interval, none while nothing changes. A {@code run} agent collects on a thread of its own;
 * the agents of a hosted pool share a few threads (closing one reporter stops only its own
 * collection).
 */
public final class InventoryReporter implements AutoCloseable {
  /** How often a real agent looks: the protocol's "at most every 60 s". */
  public static final Duration INTERVAL = Duration.ofSeconds(60);

  private static final Logger LOG = LoggerFactory.getLogger(InventoryReporter.class);

  private final String cluster;
  private final InventoryCollector collector;
  private final Consumer<Inventory> sink;
  private final Duration interval;
  private final ScheduledExecutorService thread;
  private final boolean ownThread;
  private final Object lifecycle = new Object();
  private ScheduledFuture<?> rounds;
  private boolean closed;
  private Inventory last;

  /** A reporter collecting on a thread of its own. */
  public InventoryReporter(
      String cluster, InventoryCollector collector, Consumer<Inventory> sink, Duration interval) {
    this(
        cluster,
        collector,
        sink,
        interval,
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "inventory-" + cluster);
              t.setDaemon(true);
              return t;
            }),
        true);
  }

  /** A reporter collecting on {@code shared} threads, which it never shuts down. */
  public InventoryReporter(
      String cluster,
      InventoryCollector collector,
      Consumer<Inventory> sink,
      Duration interval,
      ScheduledExecutorService shared) {
    this(cluster, collector, sink, interval, shared, false);
  }

  private InventoryReporter(
      String cluster,
      InventoryCollector collector,
      Consumer<Inventory> sink,
      Duration interval,
      ScheduledExecutorService thread,
      boolean ownThread) {
    this.cluster = cluster;
    this.collector = collector;
    this.sink = sink;
    this.interval = interval;
    this.thread = thread;
    this.ownThread = ownThread;
  }

  /**
   * Starts the periodic collection; the first shortly after start (the cluster's state is known by
   * then). Once only: a second start, or a start after {@link #close}, does nothing.
   */
  public InventoryReporter start() {
    synchronized (lifecycle) {
      if (rounds == null && !closed) {
        long first = Math.min(interval.toMillis(), 5_000);
        rounds =
            thread.scheduleWithFixedDelay(
                this::round, first, interval.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
    return this;
  }

  private void round() {
    try {
      collectNow();
    } catch (Exception e) {
      // the next round tries again; an API server outage must not end the reporter
      LOG.warn("cluster {}: inventory not collected: {}", cluster, e.toString());
    }
  }

  /**
   * Collects once, on the caller's thread; returns the report when it changed (and was handed to
   * the sink).
   */
  public synchronized Optional<Inventory> collectNow() throws ResourceException {
    Inventory report = collector.collect();
    if (report.equals(last)) {
      return Optional.empty();
    }
    last = report;
    sink.accept(report);
    return Optional.of(report);
  }

  @Override
  public void close() {
    synchronized (
        lifecycle) { // not this: a collection under way holds that, and closing never waits for a
      // guest
      closed = true;
      if (rounds != null) {
        rounds.cancel(false);
      }
    }
    if (ownThread) {
      thread.shutdownNow();
    }
  }
}
