package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.DesiredSubscription;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
    cp =
        TestControlPlane.start(
            TestDatabase.create(EdgeFailureRepublishIT.class),
            Map.of(GatewaySettings.RESYNC_SECONDS, "300"));
    fixtures = new ChannelFixtures(cp.database());
    fixtures.catalog(ChannelFixtures.DIGEST_1, "{\"schema\":\"olm.package\",\"name\":\"etcd\"}\n");
    fixtures.subscription("etcd", "env=prod", "0.9.2");
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
      a.report(running("0.9.2", "0.9.2", "Succeeded"));
      b.report(running("0.9.2", "0.9.2", "Succeeded"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fixtures
                          .query(
                              "SELECT 1 FROM subscription_status WHERE installed_version = '0.9.2'")
                          .size()
                      == 2);
      fixtures.pin("etcd", "0.9.4");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> "0.9.4".equals(maxVersion(seenA)) && "0.9.4".equals(maxVersion(seenB)));

      // a fails the edge; b, sent 0.9.4 and not moved yet, is held at 0.9.2 with no other change
      a.report(running("0.9.2", "0.9.4", "Failed"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  "0.9.2".equals(maxVersion(seenB))
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

  private static SubscriptionStatus running(String installed, String target, String phase) {
    return new SubscriptionStatus(
        "etcd",
        "etcdoperator.v" + installed,
        installed,
        target,
        phase,
        "Failed".equals(phase) ? "InstallCheckFailed" : "InstallSucceeded",
        "Failed".equals(phase) ? "install failed" : "ok",
        List.of(),
        1L);
  }

  /** The {@code maxVersion} of etcd in the last desired state the agent got (null: none yet). */
  private static String maxVersion(AgentChannelIT.Recorder seen) {
    Desired latest = seen.latest();
    return latest == null
        ? null
        : latest.subscriptions().stream()
            .filter(s -> "etcd".equals(s.name()))
            .map(DesiredSubscription::maxVersion)
            .findFirst()
            .orElse(null);
  }

  private static ChannelClient client(
      String name, String token, Path credential, AgentChannelIT.Recorder listener) {
    ChannelOptions options =
        ChannelOptions.of(URI.create(cp.baseUrl()), name, token)
            .withLabels(Map.of("env", "prod"))
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));
    return new ChannelClient(
        agentVertx,
        agentVertx.createHttpClient(),
        agentVertx.createWebSocketClient(),
        options,
        CredentialStorage.file(credential),
        listener);
  }
}
