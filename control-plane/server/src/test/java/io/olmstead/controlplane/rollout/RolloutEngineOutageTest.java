package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.olmstead.controlplane.analysis.PrometheusClient;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.config.PrometheusSettings;
import io.olmstead.controlplane.db.LeaderLock;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.maturity.MaturityService;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Through a database outage a standby (and a leader that stepped down) tries the lock on every
 * engine tick, and logs one WARN when the ticks start failing, not one per tick.
 */
class RolloutEngineOutageTest {

  @Test
  void anOutageIsOneWarningNotOnePerTick() throws Exception {
    List<Logger> loggers =
        List.of(
            (Logger) LoggerFactory.getLogger(RolloutEngine.class),
            (Logger) LoggerFactory.getLogger(LeaderLock.class));
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    loggers.forEach(l -> l.addAppender(logged));
    Vertx vertx = Vertx.vertx();
    PgConnectOptions nowhere =
        new PgConnectOptions()
            .setHost("127.0.0.1")
            .setPort(closedPort())
            .setDatabase("x")
            .setUser("x")
            .setPassword("x")
            .setConnectTimeout(1_000);
    Pool pool = PgBuilder.pool().connectingTo(nowhere).using(vertx).build();
    RolloutEngine engine =
        new RolloutEngine(
            vertx,
            pool,
            nowhere,
            new RolloutMetrics(new SimpleMeterRegistry()),
            20,
            new RolloutMaturity(new MaturityService(vertx, new Tx(pool), 1 << 20)),
            Clock.systemUTC(),
            new PrometheusClient(vertx, PrometheusSettings.fromEnvironment(Map.of())),
            EdgeRiskSettings.DEFAULT);
    try {
      engine.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> engine.completedTicks() >= 25);

      assertThat(logged.list)
          .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
          .extracting(ILoggingEvent::getFormattedMessage)
          .singleElement()
          .asString()
          .startsWith("rollout engine step failed (logged again when it recovers)");
    } finally {
      loggers.forEach(l -> l.detachAppender(logged));
      engine.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      pool.close();
      vertx.close();
    }
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
