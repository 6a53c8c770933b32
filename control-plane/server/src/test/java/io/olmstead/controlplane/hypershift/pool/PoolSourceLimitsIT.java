package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code /agent/pool} takes the agent endpoint's per-source handshake limits: a flood of bogus pool
 * tokens from one address is turned away with 429 beyond a few lookups at once, while a pool
 * replica from another address is welcomed.
 */
class PoolSourceLimitsIT {
  private static final String ATTACKER = "127.0.0.2";
  private static final int FLOOD = 300;

  @Test
  void aFloodOfBogusPoolTokensFromOneSourceGets429WhileAnotherSourceIsServed() throws Exception {
    Vertx attackerVertx = Vertx.vertx();
    Vertx vertx = Vertx.vertx();
    WebSocketClient attacker =
        attackerVertx.createWebSocketClient(
            new WebSocketClientOptions()
                .setLocalAddress(ATTACKER)
                .setMaxConnections(1000)
                .setConnectTimeout(10_000));
    WebSocketClient replica = vertx.createWebSocketClient();
    try (TestControlPlane cp =
        TestControlPlane.start(TestDatabase.create(PoolSourceLimitsIT.class), Map.of())) {
      String token = PoolFixtures.poolToken(cp);
      String uri = cp.baseUrl().replaceFirst("^http", "ws") + "/api/v1/agent/pool";
      Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
      List<Future<WebSocket>> flood = new ArrayList<>();
      for (int i = 0; i < FLOOD; i++) {
        flood.add(
            attacker
                .connect(
                    new WebSocketConnectOptions()
                        .setAbsoluteURI(uri)
                        .putHeader("Authorization", "Bearer olmpool_bogus" + i))
                .onComplete(
                    ar ->
                        statuses
                            .computeIfAbsent(
                                ar.failed() && ar.cause() instanceof UpgradeRejectedException r
                                    ? r.getStatus()
                                    : -1,
                                k -> new AtomicInteger())
                            .incrementAndGet()));
      }
      // the replica dials while the flood is under way
      AtomicInteger welcomes = new AtomicInteger();
      WebSocket ws =
          replica
              .connect(
                  new WebSocketConnectOptions()
                      .setAbsoluteURI(uri)
                      .putHeader("Authorization", "Bearer " + token))
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      ws.textMessageHandler(
          text -> {
            if ("welcome".equals(new JsonObject(text).getString("type"))) {
              welcomes.incrementAndGet();
            }
          });
      ws.writeTextMessage(
          new JsonObject()
              .put("type", "hello")
              .put("replica", "pool-0")
              .put("clusters", new JsonArray())
              .encode());
      await().atMost(Duration.ofSeconds(30)).until(() -> welcomes.get() == 1);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> flood.stream().allMatch(Future::isComplete));
      assertThat(statuses.keySet())
          .as("every bogus token refused: 401 or 429, " + statuses)
          .allMatch(s -> s == 401 || s == 429);
      assertThat(statuses.get(429)).as("turned away per source: " + statuses).isNotNull();
      assertThat(statuses.get(429).get()).as(statuses.toString()).isGreaterThan(FLOOD / 2);
      ws.close();
    } finally {
      attackerVertx.close();
      vertx.close();
    }
  }
}
