package io.olmstead.agent.hollow;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.apispec.protocol.Facts;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * N hollow agents in one process: one Vert.x, one HTTP client and one WebSocket client shared by
 * every agent, each agent a real {@link ChannelClient} with its own name, credential and pretend
 * cluster, bound to one event loop. Connections are ramped.
 */
public final class HollowFleet implements AutoCloseable {
  private final Vertx vertx;
  private final boolean ownsVertx;
  private final HttpClient http;
  private final WebSocketClient ws;
  private final List<ChannelClient> agents = new ArrayList<>();
  private final List<HollowCluster> clusters = new ArrayList<>();
  private final List<Context> loops;

  /** What to run; {@code credentialsDir} null keeps credentials in memory. */
  public record Settings(
      int count,
      URI controlPlane,
      String token,
      String namePrefix,
      Duration readyAfter,
      double failureRate,
      Map<String, String> labels,
      Path credentialsDir,
      int connectsPerSecond,
      Duration reportEvery) {

    public Settings(
        int count,
        URI controlPlane,
        String token,
        String namePrefix,
        Duration readyAfter,
        double failureRate,
        Map<String, String> labels,
        Path credentialsDir,
        int connectsPerSecond) {
      this(
          count,
          controlPlane,
          token,
          namePrefix,
          readyAfter,
          failureRate,
          labels,
          credentialsDir,
          connectsPerSecond,
          null);
    }
  }

  private HollowFleet(Vertx vertx, boolean ownsVertx, int count, List<Context> loops) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.loops = loops;
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(16));
    this.ws =
        vertx.createWebSocketClient(
            new WebSocketClientOptions().setMaxConnections(count + 16).setConnectTimeout(10_000));
  }

  /**
   * Starts the fleet on a Vert.x of its own, its agents spread over every event loop of it (two per
   * core): one loop would serve every agent's heartbeats, redials and reports in one queue, and at
   * 16,000 agents a process that queue ran heartbeats late enough for the control plane to close
   * sessions as silent.
   */
  public static HollowFleet start(Settings settings) {
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(false));
    int loops = Math.min(settings.count(), VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE);
    return start(vertx, true, settings, eventLoops(vertx, loops));
  }

  /**
   * Starts the fleet on the given Vert.x (tests share theirs), every agent on the calling thread's
   * context.
   */
  public static HollowFleet start(Vertx vertx, Settings settings) {
    HollowFleet fleet =
        new HollowFleet(vertx, false, settings.count(), List.of(vertx.getOrCreateContext()));
    fleet.add(fleet.build(settings, 0, 1));
    return fleet;
  }

  /**
   * One context on each of {@code n} event loops: each verticle instance is given a context of its
   * own, on the next loop in turn.
   */
  static List<Context> eventLoops(Vertx vertx, int n) {
    List<Context> contexts = Collections.synchronizedList(new ArrayList<>());
    vertx
        .deployVerticle(
            () ->
                new AbstractVerticle() {
                  @Override
                  public void start() {
                    contexts.add(context);
                  }
                },
            new DeploymentOptions().setInstances(n))
        .toCompletionStage()
        .toCompletableFuture()
        .orTimeout(30, TimeUnit.SECONDS)
        .join();
    return List.copyOf(contexts);
  }

  private static HollowFleet start(
      Vertx vertx, boolean owns, Settings settings, List<Context> loops) {
    HollowFleet fleet = new HollowFleet(vertx, owns, settings.count(), loops);
    List<Future<List<Member>>> parts = new ArrayList<>();
    for (int k = 0; k < loops.size(); k++) {
      int offset = k;
      Promise<List<Member>> part = Promise.promise();
      loops
          .get(k)
          .runOnContext(
              v -> {
                try {
                  part.complete(fleet.build(settings, offset, loops.size()));
                } catch (RuntimeException e) {
                  part.fail(e); // the caller hears why, not a timeout
                }
              });
      parts.add(part.future());
    }
    try {
      Future.all(parts)
          .toCompletionStage()
          .toCompletableFuture()
          .orTimeout(60, TimeUnit.SECONDS)
          .join();
    } catch (RuntimeException e) {
      // the loops that did start their agents stop them, and an own Vert.x is closed
      parts.stream().filter(Future::succeeded).forEach(p -> fleet.add(p.result()));
      fleet.close();
      throw e;
    }
    parts.forEach(p -> fleet.add(p.result()));
    return fleet;
  }

  /** How many distinct event-loop threads this fleet's agents run on. */
  public long eventLoops() {
    return loops.stream().map(HollowFleet::threadOf).distinct().count();
  }

  private static String threadOf(Context context) {
    Promise<String> name = Promise.promise();
    context.runOnContext(v -> name.complete(Thread.currentThread().getName()));
    return name.future()
        .toCompletionStage()
        .toCompletableFuture()
        .orTimeout(10, TimeUnit.SECONDS)
        .join();
  }

  private record Member(ChannelClient client, HollowCluster cluster) {}

  private synchronized void add(List<Member> members) {
    members.forEach(
        m -> {
          agents.add(m.client());
          clusters.add(m.cluster());
        });
  }

  /**
   * Builds and starts agents {@code offset + 1}, {@code offset + 1 + step}, ... on the calling
   * context: each agent's client, pretend cluster and timers live on it.
   */
  private List<Member> build(Settings settings, int offset, int step) {
    int width = Math.max(4, String.valueOf(settings.count()).length());
    Facts facts = new Facts("v1.30.0", null, 3, "hollow");
    long perAgentMillis =
        settings.connectsPerSecond() <= 0 ? 0 : Math.max(0, 1000L / settings.connectsPerSecond());
    List<Member> members = new ArrayList<>();
    for (int i = offset + 1; i <= settings.count(); i += step) {
      String name = settings.namePrefix() + String.format("%0" + width + "d", i);
      ChannelOptions options =
          ChannelOptions.of(settings.controlPlane(), name, settings.token())
              .withLabels(settings.labels())
              .withFacts(facts)
              .withBackoff(Duration.ofMillis(500), Duration.ofSeconds(20));
      HollowCluster cluster =
          new HollowCluster(vertx, settings.readyAfter().toMillis(), settings.failureRate());
      CredentialStorage storage =
          settings.credentialsDir() == null
              ? CredentialStorage.inMemory()
              : CredentialStorage.file(settings.credentialsDir().resolve(name));
      ChannelClient client = new ChannelClient(vertx, http, ws, options, storage, cluster);
      cluster.attach(client);
      if (settings.reportEvery() != null && !settings.reportEvery().isZero()) {
        cluster.churn(settings.reportEvery().toMillis());
      }
      members.add(new Member(client, cluster));
      long delay = perAgentMillis * (i - 1);
      if (delay == 0) {
        client.start();
      } else {
        vertx.setTimer(delay, id -> client.start());
      }
    }
    return members;
  }

  /**
   * Every agent reports an inventory of {@code operators} operators every {@code every} (load
   * generation).
   */
  public synchronized void reportInventory(Duration every, int operators) {
    clusters.forEach(c -> c.inventory(every.toMillis(), operators));
  }

  public synchronized List<ChannelClient> agents() {
    return List.copyOf(agents);
  }

  public synchronized long connected() {
    return agents.stream().filter(ChannelClient::isConnected).count();
  }

  @Override
  public void close() {
    Future.join(agents().stream().map(ChannelClient::stop).toList())
        .eventually(() -> ws.close())
        .eventually(() -> http.close())
        .eventually(() -> ownsVertx ? vertx.close() : Future.succeededFuture())
        .toCompletionStage()
        .toCompletableFuture()
        .orTimeout(30, TimeUnit.SECONDS)
        .exceptionally(e -> null)
        .join();
  }
}
