package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class UnhandledExceptionsTest {
  @Test
  void thePoolTimerRaceOfADownDatabaseIsKeptOutOfTheLogAndOtherErrorsAreNot() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(UnhandledExceptions.class);
    Level level = logger.getLevel();
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    logger.setLevel(Level.DEBUG);
    Vertx vertx = Vertx.vertx();
    try {
      UnhandledExceptions.install(vertx);
      int closedPort;
      try (ServerSocket s = new ServerSocket(0)) {
        closedPort = s.getLocalPort();
      }
      Pool pool =
          PgBuilder.pool()
              .with(
                  new PoolOptions()
                      .setMaxSize(1)
                      .setConnectionTimeout(1)
                      .setConnectionTimeoutUnit(TimeUnit.SECONDS))
              .connectingTo(
                  new PgConnectOptions()
                      .setHost("127.0.0.1")
                      .setPort(closedPort)
                      .setDatabase("x")
                      .setUser("x"))
              .using(vertx)
              .build();
      Throwable failure =
          pool.query("SELECT 1")
              .execute()
              .toCompletionStage()
              .toCompletableFuture()
              .handle((rows, e) -> e)
              .get(10, TimeUnit.SECONDS);
      assertThat(failure).isNotNull();
      // the race: the pool's 1 s wait timer fails the already failed promise again
      // the timer has fired once it is logged: nothing of the race is left to come
      await().atMost(Duration.ofSeconds(5)).until(() -> !logged.list.isEmpty());
      assertThat(logged.list).extracting(ILoggingEvent::getLevel).containsOnly(Level.DEBUG);
      assertThat(logged.list.get(0).getFormattedMessage()).contains("vertx-sql-client#1706");

      vertx.runOnContext(
          v -> {
            throw new IllegalStateException("something else");
          });
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> logged.list.stream().anyMatch(e -> e.getLevel() == Level.ERROR));
      assertThat(List.copyOf(logged.list))
          .filteredOn(e -> e.getLevel() == Level.ERROR)
          .extracting(e -> e.getThrowableProxy().getMessage())
          .containsExactly("something else");
    } finally {
      logger.detachAppender(logged);
      logger.setLevel(level);
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
