package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.agent.sim.SimulatedCluster;
import io.olmstead.agent.testing.RecordingSink;
import io.olmstead.agent.testing.SharedCatalogs;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Benchmark (run with {@code -Dolmstead.bench=true}): heap and CPU of one agent at rest with 20
 * installed subscriptions, and the time from a desired-state change to the agent's first write.
 * Goals: heap under 100 MB, first apply under 1 s.
 */
class AgentFootprintIT {
  private static final Logger LOG = LoggerFactory.getLogger(AgentFootprintIT.class);
  private static final int SUBSCRIPTIONS = 20;

  @Test
  void twentySubscriptionsAtRestFitTheBudgetAndChangesApplyWithinASecond() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    long beforeCatalog = usedHeap();
    SharedCatalogs.bundled();
    long withCatalog = usedHeap();
    Map<String, Long> firstReport = new ConcurrentHashMap<>();
    RecordingSink sink =
        new RecordingSink() {
          @Override
          public synchronized void publish(SubscriptionStatus status) {
            firstReport.putIfAbsent(
                status.name() + "@" + status.observedGeneration(), System.nanoTime());
            super.publish(status);
          }
        };
    try (SimulatedCluster cluster =
        SimulatedCluster.start(
            1,
            false,
            SharedCatalogs.provider(),
            sink,
            Duration.ofMillis(100),
            ReconcilerOptions.defaults())) {
      List<SubscriptionToReconcile> subs = new ArrayList<>();
      for (int i = 1; i <= SUBSCRIPTIONS; i++) {
        subs.add(
            SubscriptionToReconcile.of(
                "etcd-" + i,
                SharedCatalogs.CATALOG,
                "etcd",
                "singlenamespace-alpha",
                "team-" + i,
                "0.9.2"));
      }
      long start = System.nanoTime();
      cluster.agent().setDesired(1, subs);
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () ->
                  subs.stream()
                      .allMatch(
                          s ->
                              sink.latest(s.name())
                                  .map(st -> "Succeeded".equals(st.phase()))
                                  .orElse(false)));
      long installAll = (System.nanoTime() - start) / 1_000_000;
      await().atMost(Duration.ofSeconds(30)).until(() -> cluster.agent().queueDepth() == 0);
      Thread.sleep(3000); // settle: informer echoes of the last status writes
      long atRest = usedHeap();
      long cpuBefore = agentCpuNanos();
      Thread.sleep(20_000);
      long cpuAtRestMs = (agentCpuNanos() - cpuBefore) / 1_000_000;

      // Desired change -> first write: one subscription's maxVersion goes up.
      List<SubscriptionToReconcile> changed = new ArrayList<>(subs);
      changed.set(0, subs.get(0).withMaxVersion("0.9.4"));
      long changeAt = System.nanoTime();
      cluster.agent().setDesired(2, changed);
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(1))
          .until(() -> firstReport.containsKey("etcd-1@2"));
      long toFirstReportMs = (firstReport.get("etcd-1@2") - changeAt) / 1_000_000;
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(5))
          .until(
              () ->
                  cluster
                          .client()
                          .genericKubernetesResources(
                              "operators.coreos.com/v2", "OperatorCondition")
                          .inNamespace("team-1")
                          .withName("etcdoperator.v0.9.4")
                          .get()
                      != null);
      long toObject = (System.nanoTime() - changeAt) / 1_000_000;
      LOG.info(
          "BENCH heap: before catalog {} MB, with parsed catalog {} MB, agent+mock server with {} subscriptions at "
              + "rest {} MB (agent+mock share {} MB)",
          mb(beforeCatalog),
          mb(withCatalog),
          SUBSCRIPTIONS,
          mb(atRest),
          mb(atRest - withCatalog));
      LOG.info(
          "BENCH install of {} subscriptions: {} ms; agent thread CPU at rest over 20 s: {} ms",
          SUBSCRIPTIONS,
          installAll,
          cpuAtRestMs);
      LOG.info(
          "BENCH desired change -> first status report {} ms, -> new OperatorCondition visible {} ms",
          toFirstReportMs,
          toObject);
      assertThat(atRest - withCatalog).isLessThan(100L * 1024 * 1024);
      assertThat(toFirstReportMs).isLessThan(1000);
    }
  }

  private static long usedHeap() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  private static long agentCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null
          && (info.getThreadName().startsWith("reconcile-")
              || info.getThreadName().startsWith("resync-"))) {
        total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return total;
  }

  private static long mb(long bytes) {
    return bytes / (1024 * 1024);
  }
}
