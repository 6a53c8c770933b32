package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.config.GatewaySettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The batcher's shape under a backlog: the writes it hands the database are held open (a database
 * that is slow to commit) while reports keep coming, then let go one by one. Every batch stays
 * within the row limit, in arrival order, and every report is stored once.
 */
class StatusBatcherTest {
  private static final GatewaySettings SETTINGS = GatewaySettings.defaults();

  private Vertx vertx;
  private Context context;
  private final Queue<Promise<List<PendingAttempts.Pending>>> held = new ConcurrentLinkedQueue<>();
  private final List<List<String>> batches = new CopyOnWriteArrayList<>();
  private final List<Integer> batchRows = new CopyOnWriteArrayList<>();
  private final List<List<String>> batchAcks = new CopyOnWriteArrayList<>();
  private final List<Long> writeCalls = new CopyOnWriteArrayList<>();
  private final AtomicInteger throwsLeft = new AtomicInteger();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private StatusBatcher batcher;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
    batcher =
        new StatusBatcher(
            vertx,
            (reports, acks) -> {
              if (throwsLeft.getAndDecrement() > 0) {
                throw new IllegalStateException("the writer threw");
              }
              writeCalls.add(System.nanoTime());
              batches.add(reports.stream().map(StatusBatchWriter.Report::cluster).toList());
              batchAcks.add(acks.stream().map(StatusBatchWriter.AckRow::cluster).toList());
              batchRows.add(
                  reports.stream().mapToInt(r -> r.status().subscriptions().size()).sum()
                      + acks.size());
              Promise<List<PendingAttempts.Pending>> write = Promise.promise();
              held.add(write);
              return write.future();
            },
            new GatewayMetrics(registry, () -> 0),
            SETTINGS,
            edges -> {});
  }

  @AfterEach
  void stop() {
    vertx.close();
  }

  @Test
  void aBacklogLeavesInBatchesOfAtMostTheRowLimitInArrivalOrder() throws Exception {
    int maxRows = SETTINGS.batchMaxRows();
    int reports = maxRows * 10 + 7;
    List<Future<Void>> stored = new ArrayList<>();
    for (int i = 0; i < reports; i++) {
      stored.add(batcher.submitStatus(name(i), status(name(i), 1)));
    }
    drained();
    long allArrived = System.nanoTime();

    releaseUntil(() -> stored.stream().allMatch(Future::succeeded));

    // the last batch's rows all arrived before allArrived and were handed over at its write call
    long lastBatchWaitedAtLeast = writeCalls.get(writeCalls.size() - 1) - allArrived;
    assertThat(
            registry.get("olmstead_agent_ingest_batch_latency").timer().max(TimeUnit.NANOSECONDS))
        .as("the longest batch wait counts from its oldest row's arrival")
        .isGreaterThanOrEqualTo((double) lastBatchWaitedAtLeast);

    assertThat(batchRows)
        .as("rows of each batch")
        .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(maxRows));
    assertThat(batches.stream().flatMap(List::stream).toList())
        .as("clusters in the order their reports came, each once")
        .containsExactlyElementsOf(IntStream.range(0, reports).mapToObj(i -> name(i)).toList());
  }

  @Test
  void aReportWithMoreRowsThanTheLimitGoesAloneAndTheRestFollow() throws Exception {
    int maxRows = SETTINGS.batchMaxRows();
    Future<Void> big = batcher.submitStatus("big", status("big", maxRows + 100));
    Future<Void> small = batcher.submitStatus("small", status("small", 1));
    drained();

    releaseUntil(() -> big.succeeded() && small.succeeded());

    assertThat(batches).containsExactly(List.of("big"), List.of("small"));
    assertThat(batchRows).containsExactly(maxRows + 100, 1);
  }

  @Test
  void anAckLeavesNoLaterThanTheReportsThatCameAfterIt() throws Exception {
    int maxRows = SETTINGS.batchMaxRows();
    List<Future<Void>> stored = new CopyOnWriteArrayList<>();
    // each burst is queued by one task of the batcher's context, so no batching timer comes
    // between its reports: the first fills three whole batches, which stay in flight
    burst(() -> reports(0, maxRows * 3, stored));
    burst(
        () -> {
          batcher.submitAck("acked", 7);
          reports(maxRows * 3, maxRows * 6, stored);
        });

    releaseUntil(() -> stored.size() == maxRows * 6 && stored.stream().allMatch(Future::succeeded));

    assertThat(batchRows.subList(0, 3)).containsOnly(maxRows);
    assertThat(batchAcks.get(3))
        .as("acks of the first batch after the three in flight when the ack came")
        .containsExactly("acked");
    assertThat(batches.get(3)).hasSize(maxRows - 1).startsWith(name(maxRows * 3));
  }

  private void reports(int from, int to, List<Future<Void>> stored) {
    for (int i = from; i < to; i++) {
      stored.add(batcher.submitStatus(name(i), status(name(i), 1)));
    }
  }

  /** Runs {@code submissions} as one task of the batcher's context and waits until they arrived. */
  private void burst(Runnable submissions) throws InterruptedException {
    context.runOnContext(v -> submissions.run());
    drained();
    drained(); // the submissions' own tasks, queued by the first
  }

  @Test
  void aWriterThatThrowsFailsItsBatchAndTheBatcherGoesOn() throws Exception {
    int maxRows = SETTINGS.batchMaxRows();
    throwsLeft.set(3); // every attempt of the first batch
    List<Future<Void>> first = new ArrayList<>();
    for (int i = 0; i < maxRows; i++) {
      first.add(batcher.submitStatus(name(i), status(name(i), 1)));
    }
    drained();
    await().atMost(Duration.ofSeconds(10)).until(() -> first.stream().allMatch(Future::failed));

    Future<Void> later = batcher.submitStatus("later", status("later", 1));
    releaseUntil(later::succeeded);

    assertThat(batches).containsExactly(List.of("later"));
  }

  /** Lets the held writes finish one at a time, on the batcher's context, until {@code done}. */
  private void releaseUntil(BooleanSupplier done) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              Promise<List<PendingAttempts.Pending>> next = held.poll();
              if (next != null) {
                context.runOnContext(v -> next.complete(List.of()));
              }
              return done.getAsBoolean();
            });
  }

  /** Waits until every submission queued so far has reached the batcher. */
  private void drained() throws InterruptedException {
    CountDownLatch latch = new CountDownLatch(1);
    context.runOnContext(v -> latch.countDown());
    assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
  }

  private static String name(int i) {
    return String.format("c-%05d", i);
  }

  private static Status status(String cluster, int subscriptions) {
    List<SubscriptionStatus> subs =
        IntStream.range(0, subscriptions)
            .mapToObj(
                i ->
                    new SubscriptionStatus(
                        "s" + i, null, null, null, "Installing", null, null, List.of(), 1L))
            .toList();
    return new Status(1, "id-" + cluster, cluster, 1, true, subs);
  }
}
