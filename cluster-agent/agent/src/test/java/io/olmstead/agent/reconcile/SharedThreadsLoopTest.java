package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clusters of a pool replica on shared reconcile threads: per-cluster order, no overlap, no
 * starving.
 */
class SharedThreadsLoopTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Duration NEVER = Duration.ofHours(1);
  private final ReconcileThreads threads = ReconcileThreads.create("test", 4);
  private final List<SharedThreadsLoop> loops = new ArrayList<>();

  @AfterEach
  void close() {
    loops.forEach(SharedThreadsLoop::close);
    threads.close();
  }

  @Test
  void eachClustersPassesRunOneAtATimeInTheOrderQueuedWhileClustersRunSideBySide() {
    Map<String, List<String>> done = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    for (int c = 0; c < 6; c++) {
      String cluster = "c" + c;
      done.put(cluster, new CopyOnWriteArrayList<>());
      inFlight.put(cluster, new AtomicInteger());
      SharedThreadsLoop loop = loop();
      loop.start(
          ns -> {
            if (inFlight.get(cluster).incrementAndGet() > 1) {
              overlaps.incrementAndGet();
            }
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            sleep(20);
            running.decrementAndGet();
            inFlight.get(cluster).decrementAndGet();
            done.get(cluster).add(ns);
          },
          () -> {},
          NEVER);
      for (int n = 0; n < 8; n++) {
        loop.queue().add("ns-" + n);
      }
    }
    await().atMost(WAIT).until(() -> done.values().stream().allMatch(l -> l.size() == 8));
    assertThat(overlaps).as("two passes of one cluster at once").hasValue(0);
    done.values()
        .forEach(
            l ->
                assertThat(l)
                    .containsExactly(
                        "ns-0", "ns-1", "ns-2", "ns-3", "ns-4", "ns-5", "ns-6", "ns-7"));
    assertThat(mostAtOnce.get())
        .as("clusters run side by side, bounded by the shared threads")
        .isBetween(2, 4);
  }

  @Test
  void aGuestWhosePassesHangHoldsOneThreadAndTheOtherClustersAreServed() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    SharedThreadsLoop slow = loop();
    slow.start(ns -> hold(release), () -> {}, NEVER);
    for (int n = 0; n < 5; n++) {
      slow.queue().add("slow-" + n);
    }
    AtomicInteger served = new AtomicInteger();
    for (int c = 0; c < 20; c++) {
      SharedThreadsLoop loop = loop();
      loop.start(ns -> served.incrementAndGet(), () -> {}, NEVER);
      loop.queue().add("a");
      loop.queue().add("b");
    }
    await().atMost(WAIT).until(() -> served.get() == 40);
    release.countDown();
  }

  @Test
  void aClusterWithManyNamespacesTakesTurnsWithOneThatHasOne() throws Exception {
    try (ReconcileThreads one = ReconcileThreads.create("one", 1)) {
      AtomicInteger busyPasses = new AtomicInteger();
      SharedThreadsLoop busy = new SharedThreadsLoop(one);
      loops.add(busy);
      busy.start(
          ns -> {
            sleep(10);
            busyPasses.incrementAndGet();
          },
          () -> {},
          NEVER);
      for (int n = 0; n < 100; n++) {
        busy.queue().add("ns-" + n);
      }
      await().atMost(WAIT).until(() -> busyPasses.get() >= 2);
      AtomicInteger busyWhenServed = new AtomicInteger(-1);
      SharedThreadsLoop quiet = new SharedThreadsLoop(one);
      loops.add(quiet);
      quiet.start(ns -> busyWhenServed.set(busyPasses.get()), () -> {}, NEVER);
      int before = busyPasses.get();
      quiet.queue().add("only");
      await().atMost(WAIT).until(() -> busyWhenServed.get() >= 0);
      assertThat(busyWhenServed.get() - before)
          .as("busy cluster's passes before the quiet one's turn")
          .isLessThan(4);
      assertThat(busyPasses.get()).as("the busy cluster was not drained first").isLessThan(100);
    }
  }

  @Test
  void theResyncTimerAndPreflightsRunInTheClustersLaneAndCloseStopsThem() throws Exception {
    AtomicInteger resyncs = new AtomicInteger();
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    SharedThreadsLoop loop = loop();
    Runnable guarded =
        () -> {
          if (inFlight.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
          }
          sleep(5);
          inFlight.decrementAndGet();
        };
    loop.start(
        ns -> guarded.run(),
        () -> {
          guarded.run();
          resyncs.incrementAndGet();
        },
        Duration.ofMillis(20));
    for (int n = 0; n < 20; n++) {
      loop.queue().add("ns-" + n);
      loop.preflights().execute(guarded);
    }
    await().atMost(WAIT).until(() -> resyncs.get() >= 3);
    loop.close();
    sleep(100);
    int after = resyncs.get();
    sleep(200);
    assertThat(resyncs.get()).as("no resync after close").isEqualTo(after);
    assertThat(overlaps)
        .as("passes, resyncs and preflights of one cluster never overlap")
        .hasValue(0);
  }

  private SharedThreadsLoop loop() {
    SharedThreadsLoop loop = new SharedThreadsLoop(threads);
    loops.add(loop);
    return loop;
  }

  private static void hold(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
