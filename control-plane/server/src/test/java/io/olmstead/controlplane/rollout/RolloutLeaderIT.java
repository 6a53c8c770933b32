package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.server.ControlPlane;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One replica runs the engine (advisory lock); when it goes away another takes over. */
class RolloutLeaderIT {

  private static ControlPlane start(DatabaseSettings db) throws Exception {
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(Map.of(), "127.0.0.1")
            .withPort(0)
            .withDatabase(db)
            .withAdminToken(TestControlPlane.ADMIN_TOKEN);
    return ControlPlane.start(config)
        .toCompletionStage()
        .toCompletableFuture()
        .get(2, TimeUnit.MINUTES);
  }

  @Test
  void exactlyOneReplicaRunsTheEngineAndAnotherTakesOverWhenItStops() throws Exception {
    DatabaseSettings db = TestDatabase.create(RolloutLeaderIT.class);
    ControlPlane a = start(db);
    ControlPlane b = start(db);
    ControlPlane c = null;
    ControlPlane stopped = null;
    try {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> a.rollouts().engine().leader() || b.rollouts().engine().leader());
      // several ticks of both: the other replica must keep failing to take the lock
      long ticksA = a.rollouts().engine().completedTicks();
      long ticksB = b.rollouts().engine().completedTicks();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  a.rollouts().engine().completedTicks() >= ticksA + 3
                      && b.rollouts().engine().completedTicks() >= ticksB + 3);
      assertThat(a.rollouts().engine().leader()).isNotEqualTo(b.rollouts().engine().leader());
      ControlPlane leader = a.rollouts().engine().leader() ? a : b;
      ControlPlane follower = leader == a ? b : a;
      leader.close();
      stopped = leader;
      await().atMost(Duration.ofSeconds(10)).until(() -> follower.rollouts().engine().leader());
      c = start(db);
      ControlPlane late = c;
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> late.rollouts().engine().completedTicks() >= 3);
      assertThat(c.rollouts().engine().leader()).isFalse();
    } finally {
      if (stopped != a) {
        a.close();
      }
      if (stopped != b) {
        b.close();
      }
      if (c != null) {
        c.close();
      }
    }
  }
}
