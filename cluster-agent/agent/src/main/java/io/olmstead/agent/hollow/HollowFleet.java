package io.olmstead.agent.hollow;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.apispec.protocol.Facts;
import io.vertx.core.Future;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * N hollow agents in one process: one Vert.x, one HTTP client and one WebSocket client shared by
 * every agent, each agent a real {@link ChannelClient} with its own name, credential and pretend
 * cluster. Connections are ramped.
 */
public final class HollowFleet implements AutoCloseable {
  private final Vertx vertx;
  private final boolean ownsVertx;
  private final HttpClient http;
  private final WebSocketClient ws;
  private final List<ChannelClient> agents = new ArrayList<>();
  private final List<HollowCluster> clusters = new ArrayList<>();

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

  private HollowFleet(Vertx vertx, boolean ownsVertx, int count) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(16));
    this.ws =
        vertx.createWebSocketClient(
            new WebSocketClientOptions().setMaxConnections(count + 16).setConnectTimeout(10_000));
  }

  /** Starts the fleet on a Vert.x of its own. */
  public static HollowFleet start(Settings settings) {
    return start(Vertx.vertx(new VertxOptions().setPreferNativeTransport(false)), true, settings);
  }

  /** Starts the fleet on the given Vert.x (tests share theirs). */
  public static HollowFleet start(Vertx vertx, Settings settings) {
    return start(vertx, false, settings);
  }

  private static HollowFleet start(Vertx vertx, boolean owns, Settings settings) {
    HollowFleet fleet = new HollowFleet(vertx, owns, settings.count());
    int width = Math.max(4, String.valueOf(settings.count()).length());
    Facts facts = new Facts("v1.30.0", null, 3, "hollow");
    long perAgentMillis =
        settings.connectsPerSecond() <= 0 ? 0 : Math.max(0, 1000L / settings.connectsPerSecond());
    for (int i = 1; i <= settings.count(); i++) {
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
      ChannelClient client =
          new ChannelClient(vertx, fleet.http, fleet.ws, options, storage, cluster);
      cluster.attach(client);
      if (settings.reportEvery() != null && !settings.reportEvery().isZero()) {
        cluster.churn(settings.reportEvery().toMillis());
      }
      fleet.agents.add(client);
      fleet.clusters.add(cluster);
      long delay = perAgentMillis * (i - 1);
      if (delay == 0) {
        client.start();
      } else {
        vertx.setTimer(delay, id -> client.start());
      }
    }
    return fleet;
  }

  /**
   * Every agent reports an inventory of {@code operators} operators every {@code every} (load
   * generation).
   */
  public void reportInventory(Duration every, int operators) {
    clusters.forEach(c -> c.inventory(every.toMillis(), operators));
  }

  public List<ChannelClient> agents() {
    return List.copyOf(agents);
  }

  public long connected() {
    return agents.stream().filter(ChannelClient::isConnected).count();
  }

  @Override
  public void close() {
    Future.join(agents.stream().map(ChannelClient::stop).toList())
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
