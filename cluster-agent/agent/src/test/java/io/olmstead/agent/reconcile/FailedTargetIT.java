package io.olmstead.agent.reconcile;

import static io.olmstead.agent.testing.SimFixture.etcd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster whose install failed, then given a higher maxVersion (a rollout's approval), reports
 * the new target and its real state at once instead of repeating the failed attempt (issue 12,
 * broken flow 12).
 */
class FailedTargetIT {
  private SimFixture sim;

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void aFailedInstallReportsTheNewTargetAssoonAsMaxVersionMoves() throws Exception {
    SharedCatalogs.bundled();
    // the resync is far away: only the desired-state change can make the agent act
    sim = new SimFixture(true, Duration.ofMinutes(10));
    sim.desire(etcd("0.9.0").withStartingBundle("etcdoperator.v0.9.0"));
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.phase()).as(s.toString()).isEqualTo("Failed");
              assertThat(s.targetVersion()).isEqualTo("0.9.0");
            });

    sim.desire(etcd("0.9.2").withStartingBundle("etcdoperator.v0.9.0"));
    await()
        .atMost(Duration.ofSeconds(3))
        .untilAsserted(
            () ->
                assertThat(sim.sink.latest("etcd").orElseThrow().targetVersion())
                    .isEqualTo("0.9.2"));
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.targetVersion()).isEqualTo("0.9.2");
              assertThat(s.phase()).as(s.toString()).isEqualTo("Failed");
              assertThat(s.reason()).isEqualTo("InstallCheckFailed");
              assertThat(s.message()).contains("exceeded its progress deadline");
            });
  }
}
