package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DatabaseReadinessTest {
  @Test
  void aDatabaseThatDoesNotAnswerMakesReadinessAnswerNotReadyWithinItsTimeoutThenFromCache()
      throws Exception {
    Vertx vertx = Vertx.vertx();
    List<Socket> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
    // accepts connections and never says a word: a database stuck, or a pool queue that does not
    // move
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    accepted.add(silent.accept());
                  }
                } catch (java.io.IOException e) {
                  // closed at the end of the test
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      Pool pool =
          PgBuilder.pool()
              .with(new PoolOptions().setMaxSize(1))
              .connectingTo(
                  new PgConnectOptions()
                      .setHost("127.0.0.1")
                      .setPort(silent.getLocalPort())
                      .setDatabase("x")
                      .setUser("x"))
              .using(vertx)
              .build();
      DatabaseReadiness readiness = new DatabaseReadiness(vertx, pool, "4");

      // the answer names the 1 s bound it gave up at (the check's own timer, not the pool's connect
      // timeout)
      String first =
          readiness.check().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertThat(first).isEqualTo("database did not answer within 1000 ms");

      // later checks answer from the one stuck attempt: no new connection, no new wait
      for (int i = 0; i < 100; i++) {
        assertThat(
                readiness
                    .check()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(1, TimeUnit.SECONDS))
            .isEqualTo(first);
      }
      assertThat(accepted).hasSizeLessThanOrEqualTo(1);
      for (Socket socket : accepted) {
        socket.close();
      }
    } finally {
      vertx.close(); // not awaited: the pool's connection attempt to the silent server may take its
      // time to end
    }
  }
}
