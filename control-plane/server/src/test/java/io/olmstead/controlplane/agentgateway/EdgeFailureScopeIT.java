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
 * A failure of an upgrade edge of one package recomputes the desired state of the connected
 * clusters whose desired state holds a subscription of that package, and of no other: counted by
 * {@code olmstead_agent_desired_computations_total}.
 */
class EdgeFailureScopeIT {
  private static final String COMPUTED = "olmstead_agent_desired_computations_total";
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static Vertx agentVertx;

  @BeforeAll
  static void start() {
    cp = EdgeFailureAgents.controlPlane(EdgeFailureScopeIT.class);
    fixtures = new ChannelFixtures(cp.database());
    // a second package, other (1.0.0), in the same revision
    fixtures.update(
        "INSERT INTO catalog_packages (catalog, revision, package, default_channel) "
            + "VALUES ('demo', 1, 'other', 'alpha')");
    fixtures.update(
        "INSERT INTO catalog_channels (catalog, revision, package, channel, head, entries) "
            + "VALUES ('demo', 1, 'other', 'alpha', 'other.v1.0.0', '[]'::jsonb)");
    fixtures.update(
        "INSERT INTO catalog_bundles (catalog, revision, package, bundle, version, channels) "
            + "VALUES ('demo', 1, 'other', 'other.v1.0.0', '1.0.0', '{alpha}')");
    fixtures.update(
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, "
            + "version_kind, version_value, approval, created_by) VALUES ('other', 'demo', 'other', 'alpha', "
            + "'other', 'env=lab', 'pin', '1.0.0', 'Automatic', 'test')");
    agentVertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    agentVertx.close();
    cp.close();
  }

  @Test
  void aFailedEdgeOfOnePackageRecomputesOnlyTheClustersHoldingThatPackage(@TempDir Path dir)
      throws Exception {
    String prod = fixtures.enrollmentToken(2, 600, "{\"env\":\"prod\"}", null);
    String lab = fixtures.enrollmentToken(1, 600, "{\"env\":\"lab\"}", null);
    AgentChannelIT.Recorder seenA = new AgentChannelIT.Recorder();
    AgentChannelIT.Recorder seenB = new AgentChannelIT.Recorder();
    AgentChannelIT.Recorder seenC = new AgentChannelIT.Recorder();
    ChannelClient a = client("scope-a", prod, "prod", dir.resolve("a"), seenA);
    ChannelClient b = client("scope-b", prod, "prod", dir.resolve("b"), seenB);
    ChannelClient c = client("scope-c", lab, "lab", dir.resolve("c"), seenC);
    a.start();
    b.start();
    c.start();
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> a.isConnected() && b.isConnected() && c.isConnected());
      await().atMost(Duration.ofSeconds(30)).until(() -> maxVersion(seenC, "other") != null);
      sentTheEdgesTarget(fixtures, a, seenA, b, seenB);
      Scrape before = Scrape.of(cp.baseUrl());

      // a fails etcd's edge: a and b (both hold etcd) are recomputed, b held at 0.9.2; c (only
      // other) is not
      a.report(etcd("0.9.2", "0.9.4", "Failed"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  "0.9.2".equals(maxVersion(seenB, "etcd"))
                      && Scrape.of(cp.baseUrl()).value(COMPUTED) > before.value(COMPUTED));
      assertThat(Scrape.of(cp.baseUrl()).since(before, COMPUTED)).containsEntry(COMPUTED, 2.0);
      assertThat(maxVersion(seenC, "other")).isEqualTo("1.0.0");
    } finally {
      a.stop().toCompletionStage().toCompletableFuture().get();
      b.stop().toCompletionStage().toCompletableFuture().get();
      c.stop().toCompletionStage().toCompletableFuture().get();
    }
  }

  private static ChannelClient client(
      String name, String token, String env, Path credential, AgentChannelIT.Recorder listener) {
    return EdgeFailureAgents.client(
        agentVertx, cp.baseUrl(), name, token, Map.of("env", env), credential, listener);
  }
}
