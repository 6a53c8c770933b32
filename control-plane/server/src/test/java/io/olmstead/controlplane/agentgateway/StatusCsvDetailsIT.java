package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.apispec.protocol.CsvDetails;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
 * An agent's report with requirement status, webhooks and certificates is stored and shown on both
 * per-cluster status endpoints; a later report without them (an older agent) clears them.
 */
class StatusCsvDetailsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static ChannelFixtures fixtures;
  private static Vertx agentVertx;

  @BeforeAll
  static void start() {
    cp =
        TestControlPlane.start(
            TestDatabase.create(StatusCsvDetailsIT.class),
            Map.of(GatewaySettings.RESYNC_SECONDS, "300"));
    api = new ApiClient(cp);
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
  void certificatesWithTheirExpiryAndRequirementStatusReachBothStatusEndpoints(@TempDir Path dir)
      throws Exception {
    ChannelClient client =
        client(
            "certs-1",
            fixtures.enrollmentToken(5, 600, "{\"env\":\"prod\"}", null),
            dir.resolve("credential"));
    client.start();
    try {
      CsvDetails csv =
          new CsvDetails(
              List.of(
                  new CsvDetails.RequirementStatus(
                      "operators.coreos.com",
                      "v1alpha1",
                      "ClusterServiceVersion",
                      "etcdoperator.v0.9.2",
                      "Present",
                      "CSV minKubeVersion (1.11.0) less than server version (v1.31.0)")),
              List.of(
                  new CsvDetails.WebhookStatus(
                      "ValidatingAdmissionWebhook",
                      "vbinding.kb.io",
                      "messaging-topology-operator",
                      "messaging-topology-operator-service")),
              List.of(
                  new CsvDetails.CertificateStatus(
                      "messaging-topology-operator-service",
                      "messaging-topology-operator-service-cert",
                      "2028-11-27T10:00:00Z",
                      "2028-11-26T10:00:00Z"),
                  new CsvDetails.CertificateStatus(
                      "other-service",
                      "other-service-cert",
                      "2027-03-02T08:00:00Z",
                      "2027-03-01T08:00:00Z")));
      client.report(
          new SubscriptionStatus(
              "etcd",
              "etcdoperator.v0.9.2",
              "0.9.2",
              "0.9.2",
              "Succeeded",
              "InstallSucceeded",
              "ok",
              List.of(),
              1L,
              csv));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> item("/api/v1/subscriptions/etcd/status") != null);

      for (String path :
          List.of("/api/v1/subscriptions/etcd/status", "/api/v1/clusters/certs-1/subscriptions")) {
        JsonObject item = item(path);
        assertThat(item.getJsonArray("certificates")).as(path).hasSize(2);
        JsonObject certificate = item.getJsonArray("certificates").getJsonObject(0);
        assertThat(certificate.getString("service"))
            .isEqualTo("messaging-topology-operator-service");
        assertThat(certificate.getString("expiresAt")).isEqualTo("2028-11-27T10:00:00Z");
        assertThat(item.getString("certsRotateAt")).as(path).isEqualTo("2027-03-01T08:00:00Z");
        assertThat(item.getJsonArray("webhooks").getJsonObject(0).getString("generateName"))
            .isEqualTo("vbinding.kb.io");
        assertThat(item.getJsonArray("requirementStatus").getJsonObject(0).getString("status"))
            .isEqualTo("Present");
      }

      client.report(
          new SubscriptionStatus(
              "etcd",
              "etcdoperator.v0.9.2",
              "0.9.2",
              "0.9.2",
              "Succeeded",
              "InstallSucceeded",
              "ok again",
              List.of(),
              1L));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  "ok again"
                      .equals(item("/api/v1/subscriptions/etcd/status").getString("message")));
      assertThat(item("/api/v1/clusters/certs-1/subscriptions").fieldNames())
          .doesNotContain("certificates", "webhooks", "requirementStatus", "certsRotateAt");
    } finally {
      client.stop().toCompletionStage().toCompletableFuture().get();
    }
  }

  /** The first item of {@code path}'s answer, or null when it has none yet. */
  private static JsonObject item(String path) throws Exception {
    Response response = api.get(path, ADMIN);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    JsonArray items = new JsonObject(response.body()).getJsonArray("items");
    return items.isEmpty() ? null : items.getJsonObject(0);
  }

  private static ChannelClient client(String name, String token, Path credential) {
    ChannelOptions options =
        ChannelOptions.of(URI.create(cp.baseUrl()), name, token)
            .withLabels(Map.of("region", "eu"))
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));
    return new ChannelClient(
        agentVertx,
        agentVertx.createHttpClient(),
        agentVertx.createWebSocketClient(),
        options,
        CredentialStorage.file(credential),
        new AgentChannelIT.Recorder());
  }
}
