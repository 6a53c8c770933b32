package io.olmstead.controlplane.hypershift.pool;

import static io.olmstead.controlplane.hypershift.pool.RawPoolReplica.members;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.testsupport.MovableClock;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A frozen pool replica (its process stopped: the kernel keeps its TCP connection open, nothing
 * answers) is dropped from the live pool replicas when the control plane closes it for silence, not
 * when its connection finally ends: it never answers the close frame, so that end comes only after
 * the server's closing timeout, and meanwhile it would keep its clusters. The replicas here are raw
 * sockets that say hello and then read nothing; the control plane's clock is moved past the silence
 * window, in steps each followed by a keep-alive on time (a single jump would read as the control
 * plane's own pause, which closes nobody).
 */
class FrozenPoolReplicaIT {

  @Test
  void aFrozenReplicaLeavesThePoolWhenClosedForSilenceWhileItsConnectionIsStillOpen()
      throws Exception {
    DatabaseSettings db = TestDatabase.create(FrozenPoolReplicaIT.class);
    MovableClock clock = new MovableClock();
    // rounds every 60 s: only the clock's jumps, never real time, make the replica silent for 3
    // rounds
    try (TestControlPlane cp =
        TestControlPlane.start(db, Map.of(PoolSettings.ASSIGN_SECONDS, "60"), 0, clock)) {
      String token = PoolFixtures.poolToken(cp);
      Instant start = Instant.now();
      try (RawPoolReplica frozen = RawPoolReplica.connect(cp, token, "pool-frozen")) {
        frozen.awaitReceived("heartbeat", 1); // its hello's round kept it alive

        // each hello runs a round, whose keep-alive comes 100 s after the previous one: on time (60
        // s rounds)
        clock.jumpTo(start.plus(Duration.ofSeconds(100)));
        try (RawPoolReplica first = RawPoolReplica.connect(cp, token, "pool-first")) {
          first.awaitReceived("heartbeat", 1);
          assertThat(members(db)).contains("pool-frozen");

          clock.jumpTo(start.plus(Duration.ofSeconds(200)));
          // the next keep-alive finds the frozen one silent for over 180 s
          try (RawPoolReplica other = RawPoolReplica.connect(cp, token, "pool-other")) {
            await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(
                    () -> assertThat(members(db)).containsExactly("pool-first", "pool-other"));
            assertThat(frozen.stillOpen())
                .as("the frozen replica's connection (it never answered the close)")
                .isTrue();
          }
        }
      }
    }
  }
}
