package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.agent.health.HealthSettings;
import io.olmstead.agent.pool.PoolConfig;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (run with {@code -Dolmstead.bench=true}) of one pool replica in a process of its own:
 * the real {@code olmstead-agent pool} entry point ({@code io.olmstead.agent.Main pool}) started
 * with this JVM's class path and a bounded heap ({@code -Dolmstead.bench.xmx}, default 1g), pointed
 * at the control plane and the mock management API of {@link PoolHeapBenchIT.Fleet} (all guests are
 * one mock API in this JVM). For N clusters ({@code -Dolmstead.bench.clusters}, default 100): the
 * time from the process start until the control plane has handed all N to it and sees every one
 * connected; then, after 10 s settling, its CPU over a rest window ({@code
 * -Dolmstead.bench.rest.seconds}, default 60) from {@code /proc/<pid>/stat}, and after that its
 * heap after a full GC ({@code jcmd GC.run}, {@code GC.heap_info}), RSS and thread count ({@code
 * /proc/<pid>/status}).
 */
class PoolProcessBenchIT {
  private static final String REPLICA = "pool-0";
  private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

  @Test
  void aPoolProcessServingNClustersAtRest() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int n = Integer.getInteger("olmstead.bench.clusters", 100);
    int restSeconds = Integer.getInteger("olmstead.bench.rest.seconds", 60);
    String xmx = System.getProperty("olmstead.bench.xmx", "1g");
    Path log = Path.of("target", "pool-process-bench-" + n + ".log").toAbsolutePath();
    try (PoolHeapBenchIT.Fleet fleet = PoolHeapBenchIT.Fleet.start(n)) {
      Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
      Files.writeString(
          kubeconfig, PoolFixtures.kubeconfig(fleet.management().getMasterUrl().toString()));
      ProcessBuilder builder =
          new ProcessBuilder(
                  javaTool("java"),
                  "-Xmx" + xmx,
                  "-XX:+ExitOnOutOfMemoryError",
                  "-cp",
                  System.getProperty("java.class.path"),
                  "io.olmstead.agent.Main",
                  "pool")
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().keySet().removeIf(k -> k.startsWith("OLMSTEAD_"));
      builder.environment().put(PoolConfig.CONTROL_PLANE_URL, fleet.cp().baseUrl());
      builder.environment().put(PoolConfig.POOL_TOKEN, fleet.token());
      builder.environment().put(PoolConfig.REPLICA, REPLICA);
      builder.environment().put(PoolConfig.MANAGEMENT_KUBECONFIG, kubeconfig.toString());
      builder.environment().put(HealthSettings.PORT, "0");
      String loadBefore = loadAverage();
      long started = System.nanoTime();
      Process child = builder.start();
      try {
        await()
            .atMost(Duration.ofMinutes(Integer.getInteger("olmstead.bench.serve.minutes", 15)))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () -> {
                  assertThat(child.isAlive())
                      .as("pool process exited (%s), log %s:%n%s", exitCode(child), log, tail(log))
                      .isTrue();
                  return servedAndConnected(fleet.cp()) == n && member(fleet.cp());
                });
        double servedSeconds = (System.nanoTime() - started) / 1e9;
        long ticksPerSecond = Long.parseLong(run("getconf", "CLK_TCK").trim());
        Thread.sleep(10_000); // settle: the last handovers' first listings
        long cpuBefore = cpuTicks(child.pid());
        long restStarted = System.nanoTime();
        Thread.sleep(restSeconds * 1000L);
        long cpuTicks = cpuTicks(child.pid()) - cpuBefore;
        double restWall = (System.nanoTime() - restStarted) / 1e9;
        double cpuPercent = 100.0 * cpuTicks / ticksPerSecond / restWall;
        assertThat(servedAndConnected(fleet.cp()))
            .as("still all served and connected after the rest")
            .isEqualTo(n);
        for (int i = 0; i < 3; i++) {
          run(javaTool("jcmd"), Long.toString(child.pid()), "GC.run");
        }
        String heapInfo = run(javaTool("jcmd"), Long.toString(child.pid()), "GC.heap_info");
        Matcher used = HEAP_USED.matcher(heapInfo);
        assertThat(used.find()).as(heapInfo).isTrue();
        double heapMiB = Long.parseLong(used.group(1)) / 1024.0;
        String status = Files.readString(Path.of("/proc", Long.toString(child.pid()), "status"));
        double rssMiB = statusField(status, "VmRSS") / 1024.0;
        long threads = statusField(status, "Threads");
        System.out.printf(
            "POOL PROCESS BENCH clusters=%d xmx=%s served-and-connected-in=%.1fs heap-after-gc=%.1fMiB "
                + "heap-per-cluster=%.3fMiB rss=%.1fMiB threads=%d cpu-at-rest=%.2f%% of a core over %.0fs "
                + "load-before=%s load-after=%s log=%s%n",
            n,
            xmx,
            servedSeconds,
            heapMiB,
            n == 0 ? 0 : heapMiB / n,
            rssMiB,
            threads,
            cpuPercent,
            restWall,
            loadBefore,
            loadAverage(),
            log);
        assertThat(child.isAlive()).as("pool process alive at the end, log %s", log).isTrue();
        assertThat(heapMiB).isPositive();
        assertThat(rssMiB).isPositive();
        assertThat(threads).isPositive();
        assertThat(cpuTicks).isNotNegative();
      } finally {
        stop(child);
        Files.deleteIfExists(kubeconfig);
      }
    }
  }

  /** Clusters the control plane handed to this replica whose agent is connected now. */
  private static int servedAndConnected(TestControlPlane cp) throws Exception {
    return count(
        cp,
        "SELECT count(*) FROM pool_assignments a JOIN clusters c ON c.name = a.cluster "
            + "WHERE a.member = '"
            + REPLICA
            + "' AND c.status = 'connected'");
  }

  /** The replica's own pool channel is up (also what makes N = 0 a baseline run). */
  private static boolean member(TestControlPlane cp) throws Exception {
    return count(cp, "SELECT count(*) FROM pool_members WHERE member = '" + REPLICA + "'") == 1;
  }

  private static int count(TestControlPlane cp, String sql) throws Exception {
    return cp.controlPlane()
        .pool()
        .query(sql)
        .execute()
        .map(rows -> rows.iterator().next().getInteger(0))
        .toCompletionStage()
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  /**
   * utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/pid/stat, after the
   * command name).
   */
  private static long cpuTicks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields[0] is field 3 (state)
  }

  /** A numeric field of /proc/pid/status ({@code VmRSS} in kB, {@code Threads}). */
  private static long statusField(String status, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + ":\\s+(\\d+)").matcher(status);
    assertThat(m.find()).as(name + " in " + status).isTrue();
    return Long.parseLong(m.group(1));
  }

  private static String loadAverage() throws IOException {
    String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return fields[0] + "," + fields[1] + "," + fields[2];
  }

  private static String javaTool(String name) {
    return Path.of(System.getProperty("java.home"), "bin", name).toString();
  }

  /** Runs a short command (bounded to 60 s) and returns its output; fails on a non-zero exit. */
  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " did not finish in 60 s");
    }
    String text = new String(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(String.join(" ", command) + ": " + text).isZero();
    return text;
  }

  /** SIGTERM (the shutdown hook closes the replica), then a kill if it is not gone within 20 s. */
  private static void stop(Process child) throws InterruptedException {
    child.destroy();
    if (!child.waitFor(20, TimeUnit.SECONDS)) {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static String exitCode(Process child) {
    return child.isAlive() ? "running" : "exit " + child.exitValue();
  }

  private static String tail(Path log) {
    try {
      List<String> lines = new ArrayList<>(Files.readAllLines(log));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
