package io.olmstead.controlplane.agentgateway;

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

/**
 * Agents of the edge failure ITs: channel clients with labels, their etcd reports, and what their
 * last desired state says.
 */
final class EdgeFailureAgents {
  private EdgeFailureAgents() {}

  /**
   * A control plane for {@code testClass} (resync every 300 s: only notifications republish) with
   * catalog demo (etcd 0.9.2 and 0.9.4) and subscription etcd pinned to 0.9.2 on env=prod.
   */
  static TestControlPlane controlPlane(Class<?> testClass) {
    TestControlPlane cp =
        TestControlPlane.start(
            TestDatabase.create(testClass), Map.of(GatewaySettings.RESYNC_SECONDS, "300"));
    ChannelFixtures fixtures = new ChannelFixtures(cp.database());
    fixtures.catalog(ChannelFixtures.DIGEST_1, "{\"schema\":\"olm.package\",\"name\":\"etcd\"}\n");
    fixtures.subscription("etcd", "env=prod", "0.9.2");
    return cp;
  }

  /** etcd's status: {@code installed} runs, {@code target} wanted, in {@code phase}. */
  static SubscriptionStatus etcd(String installed, String target, String phase) {
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

  /**
   * The {@code maxVersion} of {@code subscription} in the last desired state the agent got (null:
   * none yet).
   */
  static String maxVersion(AgentChannelIT.Recorder seen, String subscription) {
    Desired latest = seen.latest();
    return latest == null
        ? null
        : latest.subscriptions().stream()
            .filter(s -> subscription.equals(s.name()))
            .map(DesiredSubscription::maxVersion)
            .findFirst()
            .orElse(null);
  }

  /**
   * {@code a} and {@code b} report etcd 0.9.2 running; once stored, etcd's pin moves to 0.9.4 and
   * both are sent it (the edge 0.9.2 to 0.9.4, not taken yet).
   */
  static void sentTheEdgesTarget(
      ChannelFixtures fixtures,
      ChannelClient a,
      AgentChannelIT.Recorder seenA,
      ChannelClient b,
      AgentChannelIT.Recorder seenB) {
    a.report(etcd("0.9.2", "0.9.2", "Succeeded"));
    b.report(etcd("0.9.2", "0.9.2", "Succeeded"));
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
        .until(
            () ->
                "0.9.4".equals(maxVersion(seenA, "etcd"))
                    && "0.9.4".equals(maxVersion(seenB, "etcd")));
  }

  /** A client of cluster {@code name} with {@code labels}, enrolling with {@code token}. */
  static ChannelClient client(
      Vertx vertx,
      String baseUrl,
      String name,
      String token,
      Map<String, String> labels,
      Path credential,
      AgentChannelIT.Recorder listener) {
    ChannelOptions options =
        ChannelOptions.of(URI.create(baseUrl), name, token)
            .withLabels(labels)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));
    return new ChannelClient(
        vertx,
        vertx.createHttpClient(),
        vertx.createWebSocketClient(),
        options,
        CredentialStorage.file(credential),
        listener);
  }
}
