package io.olmstead.controlplane.hypershift.pool;

import static io.olmstead.controlplane.hypershift.pool.RawPoolReplica.members;
import static org.assertj.core.api.Assertions.assertThat;

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
 * A control plane replica that was itself paused (a stop-the-world collection, a frozen VM) read no
 * pool replica's heartbeat meanwhile: its first keep-alive after the pause comes late and drops
 * nobody as silent. The pause is a jump of the control plane's clock past the silence window
 * between two keep-alives.
 */
class PoolKeepAliveLateTickIT {

  @Test
  void aKeepAliveLateAfterThisReplicaWasPausedDropsNoPoolReplica() throws Exception {
    DatabaseSettings db = TestDatabase.create(PoolKeepAliveLateTickIT.class);
    MovableClock clock = new MovableClock();
    // rounds every 60 s (silence window 180 s): only the clock's jump, never real time, passes the
    // window
    try (TestControlPlane cp =
        TestControlPlane.start(db, Map.of(PoolSettings.ASSIGN_SECONDS, "60"), 0, clock)) {
      String token = PoolFixtures.poolToken(cp);
      try (RawPoolReplica quiet = RawPoolReplica.connect(cp, token, "pool-quiet")) {
        quiet.awaitReceived("heartbeat", 1);

        clock.jumpTo(Instant.now().plus(Duration.ofSeconds(200)));
        // another replica's hello runs a round: its keep-alive is the first after the pause
        try (RawPoolReplica other = RawPoolReplica.connect(cp, token, "pool-other")) {
          other.awaitReceived("heartbeat", 1);
          quiet.awaitReceived("heartbeat", 2); // kept alive by that keep-alive, not closed by it

          assertThat(members(db)).containsExactly("pool-other", "pool-quiet");
          assertThat(quiet.received()).doesNotContain("silent for over");
          assertThat(quiet.stillOpen()).isTrue();
        }
      }
    }
  }
}
