package io.olmstead.controlplane.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Heartbeat;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}): inventory ingestion. {@code
 * olmstead.bench.agents} hollow agents (no Kubernetes: JDK WebSocket clients speaking the protocol,
 * so their threads are not the control plane's) each send an inventory of 20 operators every {@code
 * olmstead.bench.periodSeconds}, after a baseline of the same agents sending only heartbeats.
 * Reports the control plane's CPU (its Vert.x and worker threads, by thread CPU time) and
 * PostgreSQL's (the embedded server's processes) above the baseline, per core, and the reports
 * stored per second.
 */
class InventoryIngestBenchIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void inventoryIngestion() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int agents = Integer.getInteger("olmstead.bench.agents", 500);
    int period = Integer.getInteger("olmstead.bench.periodSeconds", 6);
    int seconds = Integer.getInteger("olmstead.bench.seconds", 60);
    try (TestControlPlane cp =
        TestControlPlane.start(TestDatabase.create(InventoryIngestBenchIT.class), Map.of())) {
      String token = enrollmentToken(cp, agents);
      List<WebSocket> sockets = new ArrayList<>();
      for (int i = 0; i < agents; i++) {
        sockets.add(connect(cp, credential(cp, token, String.format("hollow-%05d", i))));
      }
      ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
      try {
        for (WebSocket ws : sockets) {
          timers.scheduleAtFixedRate(
              () -> send(ws, ProtocolCodec.encode(new Heartbeat(1, null))),
              5,
              10,
              TimeUnit.SECONDS);
        }
        Thread.sleep(10_000);
        Sample baseline = Sample.take(seconds);
        for (int i = 0; i < sockets.size(); i++) {
          WebSocket ws = sockets.get(i);
          // each agent's own rounds: its every report differs from its last (a shared counter
          // advanced by the number
          // of agents between two reports of one agent, a multiple of 50 at 300 or 1,000 agents, so
          // most were equal)
          AtomicLong round = new AtomicLong();
          timers.scheduleAtFixedRate(
              () -> send(ws, ProtocolCodec.encode(inventory(round.incrementAndGet()))),
              ThreadLocalRandom.current().nextLong(period * 1000L),
              period * 1000L,
              TimeUnit.MILLISECONDS);
        }
        Thread.sleep(period * 1000L);
        double storedBefore = reports(cp, "stored");
        double coalescedBefore = reports(cp, "coalesced");
        double unchangedBefore = reports(cp, "unchanged");
        Sample load = Sample.take(seconds);
        double storedPerSecond = (reports(cp, "stored") - storedBefore) / seconds;
        double coalescedPerSecond = (reports(cp, "coalesced") - coalescedBefore) / seconds;
        double unchangedPerSecond = (reports(cp, "unchanged") - unchangedBefore) / seconds;
        String database =
            Sample.databaseMeasured()
                ? String.format(
                    "PostgreSQL %.1f%% above (%.1f%% -> %.1f%%)",
                    load.database - baseline.database, baseline.database, load.database)
                : "PostgreSQL not measured (not a child process of this JVM)";
        System.out.printf(
            "BENCH inventory ingestion: %d agents x 20 operators every %d s (%.0f reports/s offered), "
                + "stored %.1f reports/s, unchanged %.1f/s, coalesced %.1f/s; control plane CPU %.1f%% of a core above the heartbeat "
                + "baseline (%.1f%% -> %.1f%%); %s; %d s windows%n",
            agents,
            period,
            agents / (double) period,
            storedPerSecond,
            unchangedPerSecond,
            coalescedPerSecond,
            load.controlPlane - baseline.controlPlane,
            baseline.controlPlane,
            load.controlPlane,
            database,
            seconds);
        assertThat(storedPerSecond).isPositive();
      } finally {
        timers.shutdownNow();
        sockets.forEach(ws -> ws.abort());
      }
    }
  }

  /**
   * CPU per core in percent over a window: the control plane's threads, and PostgreSQL's processes.
   */
  private record Sample(double controlPlane, double database) {
    static Sample take(int seconds) throws Exception {
      long cp0 = controlPlaneNanos();
      long db0 = databaseTicks();
      long t0 = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      double wall = System.nanoTime() - t0;
      return new Sample(
          100.0 * (controlPlaneNanos() - cp0) / wall,
          100.0 * (databaseTicks() - db0) * 10_000_000L / wall);
    }

    private static long controlPlaneNanos() {
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      long sum = 0;
      for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
        if (info != null
            && (info.getThreadName().startsWith("vert.x-")
                || info.getThreadName().startsWith("olmstead"))) {
          sum += Math.max(0, mx.getThreadCpuTime(info.getThreadId()));
        }
      }
      return sum;
    }

    static boolean databaseMeasured() {
      return ProcessHandle.current()
          .descendants()
          .anyMatch(p -> p.info().command().orElse("").contains("postgres"));
    }

    /**
     * utime + stime (clock ticks, 100 per second) of the JVM's child processes: the embedded
     * PostgreSQL.
     */
    private static long databaseTicks() {
      return ProcessHandle.current()
          .descendants()
          .mapToLong(
              p -> {
                try {
                  String[] stat =
                      Files.readString(Path.of("/proc/" + p.pid() + "/stat"))
                          .replaceAll(".*\\) ", "")
                          .split(" ");
                  return Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
                } catch (Exception e) {
                  return 0;
                }
              })
          .sum();
    }
  }

  static Inventory inventory(long round) {
    Inventory.Resources r = new Inventory.Resources(100, 128L << 20);
    List<Inventory.Operator> ops = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ops.add(
          new Inventory.Operator(
              "op-" + i,
              "ns-" + i,
              "package-" + i,
              "package-" + i + ".v1.0." + (i % 3),
              "1.0." + (i % 3),
              "Succeeded",
              "InstallSucceeded",
              i % 5 == 0 ? null : "op-0",
              List.of(
                  new Inventory.CustomResources(
                      "things" + i + ".example.com", "Thing", (round + i) % 50, null),
                  new Inventory.CustomResources("others" + i + ".example.com", "Other", 3, null)),
              new Inventory.Pods(1, 0, r, r, null),
              List.of(
                  new Inventory.Stack(
                      "Thing", "app", "thing-1", new Inventory.Pods(2, 0, r, null, null)))));
    }
    return new Inventory(1, null, null, ops, null);
  }

  private static void send(WebSocket ws, String text) {
    synchronized (ws) {
      ws.sendText(text, true).join();
    }
  }

  private static WebSocket connect(TestControlPlane cp, String credential) throws Exception {
    CompletableFuture<Void> welcomed = new CompletableFuture<>();
    WebSocket ws =
        HTTP.newWebSocketBuilder()
            .header("Authorization", "Bearer " + credential)
            .buildAsync(
                URI.create("ws://127.0.0.1:" + cp.port() + "/api/v1/agent/connect"),
                new WebSocket.Listener() {
                  @Override
                  public CompletionStage<?> onText(
                      WebSocket socket, CharSequence data, boolean last) {
                    if (data.toString().contains("\"welcome\"")) {
                      welcomed.complete(null);
                    }
                    socket.request(1);
                    return null;
                  }
                })
            .get(30, TimeUnit.SECONDS);
    send(
        ws,
        ProtocolCodec.encode(
            new Hello(
                1, null, "bench", List.of(1), new Facts("v1.30.0", null, 1, "hollow"), null)));
    welcomed.get(30, TimeUnit.SECONDS);
    return ws;
  }

  private static String enrollmentToken(TestControlPlane cp, int uses) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/enrollment-tokens"))
                .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        new JsonObject().put("ttlSeconds", 3600).put("maxUses", uses).encode()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return new JsonObject(r.body()).getString("token");
  }

  private static String credential(TestControlPlane cp, String token, String name)
      throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/agent/enroll"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        new JsonObject()
                            .put("clusterName", name)
                            .put("facts", new JsonObject().put("kubernetesVersion", "v1.30.0"))
                            .encode()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return new JsonObject(r.body()).getString("credential");
  }

  private static double reports(TestControlPlane cp, String outcome) throws Exception {
    String metrics =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return metrics
        .lines()
        .filter(l -> l.startsWith("olmstead_inventory_reports_total{outcome=\"" + outcome + "\"}"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
