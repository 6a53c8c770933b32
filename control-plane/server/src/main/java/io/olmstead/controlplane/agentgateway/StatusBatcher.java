package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Status;
import io.olmstead.controlplane.config.GatewaySettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects status reports and desired-state acks from every session for at most {@code
 * batchMaxDelayMillis} or {@code batchMaxRows} rows, then writes them in one transaction ({@link
 * StatusBatchWriter}) and completes each report's promise (the session then sends {@code
 * statusAck}). Runs on one context; a few batches may be in flight. While they are, reports and
 * acks queue in arrival order and leave in batches of at most {@code batchMaxRows} rows (a single
 * report with more rows goes alone): a batch never grows with the backlog, so one slow statement
 * cannot carry a whole fleet's reports past the statement timeout (a fleet-wide change over 16,667
 * clusters a replica once queued 48,501 rows into one batch, which timed out and failed every
 * session in it).
 */
final class StatusBatcher {
  private static final Logger LOG = LoggerFactory.getLogger(StatusBatcher.class);
  private static final int MAX_IN_FLIGHT = 3;
  private static final int MAX_ATTEMPTS = 3;

  private final Vertx vertx;
  private final Context context;
  private final Writer writer;
  private final Consumer<List<PendingAttempts.Pending>> edges;
  private final GatewayMetrics metrics;
  private final int maxRows;
  private final int maxDelayMillis;

  /**
   * A report waiting for its batch, with the promise its session awaits, or an ack ({@code report}
   * and {@code promise} null): one queue keeps them in the order they came.
   */
  private record Queued(
      StatusBatchWriter.Report report,
      Promise<Void> promise,
      StatusBatchWriter.AckRow ack,
      long arrivedNanos) {
    int rows() {
      return ack != null ? 1 : Math.max(1, report.status().subscriptions().size());
    }
  }

  private final Deque<Queued> queue = new ArrayDeque<>();
  private int rows;
  private long timer = -1;
  private int inFlight;

  /** Stores one batch in one transaction ({@link StatusBatchWriter#write}). */
  @FunctionalInterface
  interface Writer {
    Future<List<PendingAttempts.Pending>> write(
        List<StatusBatchWriter.Report> reports, List<StatusBatchWriter.AckRow> acks);
  }

  /** {@code edges}: told the upgrade-edge attempts of each stored batch (it must not block). */
  StatusBatcher(
      Vertx vertx,
      Writer writer,
      GatewayMetrics metrics,
      GatewaySettings settings,
      Consumer<List<PendingAttempts.Pending>> edges) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.writer = writer;
    this.edges = edges;
    this.metrics = metrics;
    this.maxRows = settings.batchMaxRows();
    this.maxDelayMillis = settings.batchMaxDelayMillis();
  }

  /** Queues a report; the future completes once it is durable. */
  Future<Void> submitStatus(String cluster, Status status) {
    Promise<Void> promise = Promise.promise();
    context.runOnContext(
        v -> {
          add(new StatusBatchWriter.Report(cluster, status), promise);
        });
    return promise.future();
  }

  void submitAck(String cluster, long generation) {
    context.runOnContext(
        v -> {
          queue.add(
              new Queued(
                  null,
                  null,
                  new StatusBatchWriter.AckRow(cluster, generation),
                  System.nanoTime()));
          rows++;
          armOrFlush();
        });
  }

  private void add(StatusBatchWriter.Report report, Promise<Void> promise) {
    Queued queued = new Queued(report, promise, null, System.nanoTime());
    queue.add(queued);
    rows += queued.rows();
    armOrFlush();
  }

  private void armOrFlush() {
    if (rows >= maxRows && inFlight < MAX_IN_FLIGHT) {
      flush();
    } else if (timer < 0) {
      timer =
          vertx.setTimer(
              maxDelayMillis,
              id -> {
                timer = -1;
                flush();
              });
    }
  }

  private void flush() {
    if (rows == 0) {
      return;
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      // The queue waits while the database catches up; each finishing batch flushes the next.
      return;
    }
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    List<StatusBatchWriter.Report> batchReports = new ArrayList<>();
    List<Promise<Void>> batchPromises = new ArrayList<>();
    List<StatusBatchWriter.AckRow> batchAcks = new ArrayList<>();
    int batchRows = 0;
    // the batch's wait counts from its oldest row's arrival (metrics); rows > 0: the queue has one
    long started = queue.peekFirst().arrivedNanos();
    while (!queue.isEmpty()
        && (batchRows == 0 || batchRows + queue.peekFirst().rows() <= maxRows)) {
      Queued next = queue.pollFirst();
      if (next.ack() != null) {
        batchAcks.add(next.ack());
      } else {
        batchReports.add(next.report());
        batchPromises.add(next.promise());
      }
      batchRows += next.rows();
    }
    rows -= batchRows;
    inFlight++;
    int written = batchRows;
    write(batchReports, batchAcks, 1)
        .onComplete(
            ar -> {
              inFlight--;
              try {
                if (ar.succeeded()) {
                  metrics.batch(written, Duration.ofNanos(System.nanoTime() - started));
                  batchPromises.forEach(Promise::tryComplete);
                  edges.accept(ar.result());
                } else {
                  LOG.error("status batch of {} rows not stored", written, ar.cause());
                  batchPromises.forEach(p -> p.tryFail(ar.cause()));
                }
              } finally {
                if (rows > 0 && (rows >= maxRows || timer < 0)) {
                  flush();
                }
              }
            });
    if (rows >= maxRows) {
      flush(); // the backlog holds more full batches: up to MAX_IN_FLIGHT go at once
    } else if (rows > 0 && timer < 0) {
      armOrFlush();
    }
  }

  private Future<List<PendingAttempts.Pending>> write(
      List<StatusBatchWriter.Report> batchReports,
      List<StatusBatchWriter.AckRow> batchAcks,
      int attempt) {
    Future<List<PendingAttempts.Pending>> written;
    try {
      written = writer.write(batchReports, batchAcks);
    } catch (RuntimeException e) {
      written = Future.failedFuture(e); // a throw must not keep its batch in flight for good
    }
    return written.recover(
        e -> {
          if (attempt >= MAX_ATTEMPTS) {
            return Future.failedFuture(e);
          }
          // Deadlocks and serialization failures between concurrent batches are transient.
          LOG.debug("status batch attempt {} failed: {}", attempt, e.toString());
          Promise<List<PendingAttempts.Pending>> retry = Promise.promise();
          vertx.setTimer(
              20L * attempt, id -> write(batchReports, batchAcks, attempt + 1).onComplete(retry));
          return retry.future();
        });
  }
}
