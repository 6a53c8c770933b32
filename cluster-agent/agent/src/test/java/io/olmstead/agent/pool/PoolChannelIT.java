package io.olmstead.agent.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool replica's keep-alive of its control plane connection, against a stand-in control plane
 * that welcomes it (rounds every second: silence window 8 s) and then says nothing more. The
 * replica's clock is driven by the test: a jump between two heartbeat ticks is the replica's own
 * pause.
 */
class PoolChannelIT {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final Vertx vertx = Vertx.vertx();
  private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger heartbeats = new AtomicInteger();
  private final List<String> closes = new CopyOnWriteArrayList<>();
  private PoolChannel channel;

  @AfterEach
  void stop() throws Exception {
    if (channel != null) {
      channel.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aHeartbeatTickLateAfterThisReplicaWasPausedKeepsTheConnectionAndTheDeadlineMovesByThePause()
      throws Exception {
    start();
    await().atMost(Duration.ofSeconds(30)).until(() -> heartbeats.get() >= 1);

    clock.addAndGet(100 * SECOND); // paused: no tick ran, no frame was read
    int before = heartbeats.get();
    await().atMost(Duration.ofSeconds(30)).until(() -> heartbeats.get() >= before + 2);
    assertThat(closes).as("closes after the pause").isEmpty();
    assertThat(connections.get()).isEqualTo(1);

    // the control plane stays silent: 1 s of its silence counted at the late tick, then a second
    // per tick
    int steps = 0;
    while (closes.isEmpty() && steps < 12) {
      clock.addAndGet(SECOND);
      steps++;
      int seen = heartbeats.get();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> heartbeats.get() > seen || !closes.isEmpty());
    }
    assertThat(closes).first().asString().isEqualTo("4408 control plane silent");
    assertThat(steps)
        .as("seconds of the control plane's own silence past the pause before the close")
        .isEqualTo(8);
  }

  private void start() throws Exception {
    HttpServer server =
        vertx
            .createHttpServer()
            .webSocketHandler(
                ws -> {
                  connections.incrementAndGet();
                  ws.closeHandler(v -> closes.add(ws.closeStatusCode() + " " + ws.closeReason()));
                  ws.textMessageHandler(
                      text -> {
                        String type = new JsonObject(text).getString("type");
                        if ("hello".equals(type)) {
                          ws.writeTextMessage(
                              new JsonObject()
                                  .put("type", "welcome")
                                  .put("assignSeconds", 1)
                                  .encode());
                        } else if ("heartbeat".equals(type)) {
                          heartbeats.incrementAndGet();
                        }
                      });
                });
    int port =
        server
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS)
            .actualPort();
    channel =
        new PoolChannel(
            vertx,
            vertx.createWebSocketClient(),
            URI.create("http://127.0.0.1:" + port),
            "token",
            "pool-0",
            new NothingServed(),
            clock::get);
    channel.start();
  }

  /** A pool replica serving nothing: the channel's keep-alive is all this test looks at. */
  private static final class NothingServed implements PoolChannel.Served {
    @Override
    public Set<String> held() {
      return Set.of();
    }

    @Override
    public void assign(HostedTarget target, String credential) {}

    @Override
    public void release(String cluster) {}
  }
}
