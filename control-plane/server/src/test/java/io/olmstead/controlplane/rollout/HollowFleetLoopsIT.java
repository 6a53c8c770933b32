package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hollow command's fleet (a Vert.x of its own, its agents spread over every event loop)
 * enrolls, connects and reports each agent's install as one loop did: agents on the second and
 * later loops take desired state and report {@code Succeeded} like those on the first.
 */
class HollowFleetLoopsIT {
  private static final int AGENTS = 9;

  @Test
  void aFleetOnEveryEventLoopConnectsAndReportsEveryInstall() {
    DatabaseSettings db = TestDatabase.create(HollowFleetLoopsIT.class);
    try (TestControlPlane cp = TestControlPlane.start(db, Map.of())) {
      RolloutFixtures fx = new RolloutFixtures(db);
      fx.catalog();
      fx.subscription("loops", "fleet=loops", "0.9.4");
      try (HollowFleet fleet =
          HollowFleet.start(
              new HollowFleet.Settings(
                  AGENTS,
                  URI.create(cp.baseUrl()),
                  fx.enrollmentToken(AGENTS, "{\"fleet\":\"loops\"}"),
                  "loops-",
                  Duration.ofMillis(100),
                  0.0,
                  Map.of(),
                  null,
                  0))) {
        assertThat(fleet.eventLoops())
            .as("event loops the agents run on")
            .isGreaterThan(1)
            .isLessThanOrEqualTo(AGENTS);
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    fx.count(
                            "SELECT count(*) FROM subscription_status WHERE subscription = 'loops' "
                                + "AND installed_version = '0.9.4' AND phase = 'Succeeded'")
                        == AGENTS);
        assertThat(fleet.connected()).isEqualTo(AGENTS);
      }
    }
  }
}
