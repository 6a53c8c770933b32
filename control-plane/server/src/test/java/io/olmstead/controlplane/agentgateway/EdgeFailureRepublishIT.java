package io.olmstead.controlplane.agentgateway;

import static io.olmstead.controlplane.agentgateway.EdgeFailureAgents.etcd;
import static io.olmstead.controlplane.agentgateway.EdgeFailureAgents.maxVersion;
import static io.olmstead.controlplane.agentgateway.EdgeFailureAgents.sentTheEdgesTarget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failure of an upgrade edge recorded outside rollouts republishes desired state: a cluster with
 * the same facts that was already sent the edge's target, and has not moved yet, is told to stay
 * where it runs without any other change (no resync, no subscription or cluster change).
 */
class EdgeFailureRepublishIT {
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static Vertx agentVertx;

  @BeforeAll
  static void start() {
    cp = EdgeFailureAgents.controlPlane(EdgeFailureRepublishIT.class);
    fixtures = new ChannelFixtures(cp.database());
    agentVertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    agentVertx.close();
    cp.close();
  }

  @Test
  void aClusterSentTheTargetOfAnEdgeThatJustFailedOnMatchingFactsIsHeldWhereItRuns(
      @TempDir Path dir) throws Exception {
    String token = fixtures.enrollmentToken(2, 600, "{\"env\":\"prod\"}", null);
    AgentChannelIT.Recorder seenA = new AgentChannelIT.Recorder();
    AgentChannelIT.Recorder seenB = new AgentChannelIT.Recorder();
    ChannelClient a = client("fail-a", token, dir.resolve("a"), seenA);
    ChannelClient b = client("fail-b", token, dir.resolve("b"), seenB);
    a.start();
    b.start();
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> a.isConnected() && b.isConnected());
      sentTheEdgesTarget(fixtures, a, seenA, b, seenB);

      // a fails the edge; b, sent 0.9.4 and not moved yet, is held at 0.9.2 with no other change
      a.report(etcd("0.9.2", "0.9.4", "Failed"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  "0.9.2".equals(maxVersion(seenB, "etcd"))
                      && fixtures
                              .query(
                                  "SELECT 1 FROM subscription_edge_holds WHERE cluster = 'fail-b' "
                                      + "AND from_version = '0.9.2' AND to_version = '0.9.4'")
                              .size()
                          == 1);
      assertThat(
              fixtures.query(
                  "SELECT 1 FROM edge_risk_observations WHERE cluster = 'fail-a' AND failed"))
          .hasSize(1);
    } finally {
      a.stop().toCompletionStage().toCompletableFuture().get();
      b.stop().toCompletionStage().toCompletableFuture().get();
    }
  }

  private static ChannelClient client(
      String name, String token, Path credential, AgentChannelIT.Recorder listener) {
    return EdgeFailureAgents.client(
        agentVertx, cp.baseUrl(), name, token, Map.of("env", "prod"), credential, listener);
  }
}
