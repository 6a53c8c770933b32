package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Status;
import io.olmstead.controlplane.config.GatewaySettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects status reports and desired-state acks from every session for at most {@code
 * batchMaxDelayMillis} or {@code batchMaxRows} rows, then writes them in one transaction ({@link
 * StatusBatchWriter}) and completes each report's promise (the session then sends {@code
 * statusAck}). Runs on one context; a few batches may be in flight.
 */
final class StatusBatcher {
  private static final Logger LOG = LoggerFactory.getLogger(StatusBatcher.class);
  private static final int MAX_IN_FLIGHT = 3;
  private static final int MAX_ATTEMPTS = 3;

  private final Vertx vertx;
  private final Context context;
  private final StatusBatchWriter writer;
  private final Consumer<List<PendingAttempts.Pending>> edges;
  private final GatewayMetrics metrics;
  private final int maxRows;
  private final int maxDelayMillis;

  private List<StatusBatchWriter.Report> reports = new ArrayList<>();
  private List<StatusBatchWriter.AckRow> acks = new ArrayList<>();
  private List<Promise<Void>> promises = new ArrayList<>();
  private int rows;
  private long firstNanos;
  private long timer = -1;
  private int inFlight;

  /** {@code edges}: told the upgrade-edge attempts of each stored batch (it must not block). */
  StatusBatcher(
      Vertx vertx,
      StatusBatchWriter writer,
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
          acks.add(new StatusBatchWriter.AckRow(cluster, generation));
          rows++;
          armOrFlush();
        });
  }

  private void add(StatusBatchWriter.Report report, Promise<Void> promise) {
    reports.add(report);
    promises.add(promise);
    rows += Math.max(1, report.status().subscriptions().size());
    armOrFlush();
  }

  private void armOrFlush() {
    if (firstNanos == 0) {
      firstNanos = System.nanoTime();
    }
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
      // The batch keeps growing while the database catches up; the finishing batch flushes it.
      return;
    }
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    List<StatusBatchWriter.Report> batchReports = reports;
    List<StatusBatchWriter.AckRow> batchAcks = acks;
    List<Promise<Void>> batchPromises = promises;
    int batchRows = rows;
    long started = firstNanos;
    reports = new ArrayList<>();
    acks = new ArrayList<>();
    promises = new ArrayList<>();
    rows = 0;
    firstNanos = 0;
    inFlight++;
    write(batchReports, batchAcks, 1)
        .onComplete(
            ar -> {
              inFlight--;
              if (ar.succeeded()) {
                metrics.batch(batchRows, Duration.ofNanos(System.nanoTime() - started));
                batchPromises.forEach(Promise::tryComplete);
                edges.accept(ar.result());
              } else {
                LOG.error("status batch of {} rows not stored", batchRows, ar.cause());
                batchPromises.forEach(p -> p.tryFail(ar.cause()));
              }
              if (rows > 0 && (rows >= maxRows || timer < 0)) {
                flush();
              }
            });
  }

  private Future<List<PendingAttempts.Pending>> write(
      List<StatusBatchWriter.Report> batchReports,
      List<StatusBatchWriter.AckRow> batchAcks,
      int attempt) {
    return writer
        .write(batchReports, batchAcks)
        .recover(
            e -> {
              if (attempt >= MAX_ATTEMPTS) {
                return Future.failedFuture(e);
              }
              // Deadlocks and serialization failures between concurrent batches are transient.
              LOG.debug("status batch attempt {} failed: {}", attempt, e.toString());
              Promise<List<PendingAttempts.Pending>> retry = Promise.promise();
              vertx.setTimer(
                  20L * attempt,
                  id -> write(batchReports, batchAcks, attempt + 1).onComplete(retry));
              return retry.future();
            });
  }
}
