package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /clusters/{name}/credential/revoke} on two replicas sharing one database: the replica
 * holding the agent's connection closes it within seconds although the revocation went through the
 * other one. The resync period is far longer than the test, so only the change notification can do
 * it.
 */
class CredentialRevocationIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Map<String, String> ENV = Map.of(GatewaySettings.RESYNC_SECONDS, "300");
  private static TestControlPlane holding;
  private static TestControlPlane other;
  private static ApiClient api;
  private static ChannelFixtures fixtures;
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    holding = TestControlPlane.start(TestDatabase.create(CredentialRevocationIT.class), ENV);
    other = TestControlPlane.start(holding.database(), ENV);
    api = new ApiClient(other);
    fixtures = new ChannelFixtures(holding.database());
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close();
    other.close();
    holding.close();
  }

  @Test
  void revokingClosesTheConnectionOnAnyReplicaWithinSecondsAndTheAgentCannotReconnect()
      throws Exception {
    String token = fixtures.enrollmentToken(5, 600, "{}", null);
    String credential = Enroll.credential(holding.baseUrl(), token, "cut-off");
    try (RawAgent agent = RawAgent.connect(vertx, holding.port(), credential)) {
      agent.handshake();
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> "connected".equals(fixtures.clusterStatus("cut-off")));

      Response revoked = revoke("cut-off", ADMIN);
      assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);
      assertThat(revoked.json().getString("name")).isEqualTo("cut-off");
      assertThat(revoked.json().getString("status")).isEqualTo("disconnected");
      assertThat(agent.closeCode.get(5, TimeUnit.SECONDS)).isEqualTo(4007);
      assertThat(agent.closeReason).startsWith("credential-revoked");
    }
    assertThat(catchThrowable(() -> RawAgent.connect(vertx, holding.port(), credential)))
        .hasRootCauseInstanceOf(UpgradeRejectedException.class)
        .rootCause()
        .satisfies(e -> assertThat(((UpgradeRejectedException) e).getStatus()).isEqualTo(401));
    assertThat(catalogFetch(credential)).isEqualTo(401);
    // The cluster stays, disconnected; re-enrolling needs a token bound to its name.
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> "disconnected".equals(fixtures.clusterStatus("cut-off")));
    assertThat(api.get("/api/v1/clusters/cut-off", ADMIN).status()).isEqualTo(200);
    assertThat(Enroll.cluster(holding.baseUrl(), token, "cut-off").statusCode()).isEqualTo(409);
    String bound = fixtures.enrollmentToken(1, 600, "{}", "cut-off");
    try (RawAgent again =
        RawAgent.connect(
            vertx, holding.port(), Enroll.credential(holding.baseUrl(), bound, "cut-off"))) {
      assertThat(again.handshake()).isNotNull();
    }

    assertThat(audit("clusters/cut-off"))
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.getString("actor")).isEqualTo("token:bootstrap-admin");
              assertThat(entry.getString("outcome")).isEqualTo("success");
              assertThat(entry.getJsonObject("detail").getBoolean("revoked")).isTrue();
            });
  }

  @Test
  void revokingWithoutALiveCredentialChangesNothingAndIsAuditedAsSuch() throws Exception {
    String token = fixtures.enrollmentToken(1, 600, "{}", null);
    String credential = Enroll.credential(holding.baseUrl(), token, "twice");
    assertThat(revoke("twice", ADMIN).status()).isEqualTo(200);
    Response again = revoke("twice", ADMIN);
    assertThat(again.status()).as(again.body()).isEqualTo(200);
    assertThat(again.json().getString("status")).as("never connected").isEqualTo("pending");
    assertThat(catalogFetch(credential)).isEqualTo(401);
    assertThat(audit("clusters/twice"))
        .extracting(e -> e.getJsonObject("detail").getBoolean("revoked"))
        .containsExactly(false, true);
  }

  @Test
  void onlyAdminsOfTheClustersTeamMayRevokeAndAnUnknownClusterIs404() throws Exception {
    String token = fixtures.enrollmentToken(1, 600, "{\"olmstead.io/team\":\"team-a\"}", null);
    String credential = Enroll.credential(holding.baseUrl(), token, "team-a-1");
    String viewer = api.createToken(ADMIN, "revoke-viewer", "viewer", List.of());
    String operator = api.createToken(ADMIN, "revoke-operator", "operator", List.of());
    String teamB = api.createToken(ADMIN, "revoke-team-b", "admin", List.of("team-b"));
    String teamA = api.createToken(ADMIN, "revoke-team-a", "admin", List.of("team-a"));

    assertThat(revoke("team-a-1", viewer).status()).isEqualTo(403);
    assertThat(revoke("team-a-1", operator).status()).isEqualTo(403);
    assertThat(revoke("team-a-1", teamB).status())
        .as("another team's cluster is not there for it")
        .isEqualTo(404);
    assertThat(revoke("no-such-cluster", ADMIN).status()).isEqualTo(404);
    assertThat(catalogFetch(credential))
        .as("refused revocations leave the credential live")
        .isEqualTo(404);

    assertThat(revoke("team-a-1", teamA).status()).isEqualTo(200);
    assertThat(catalogFetch(credential)).isEqualTo(401);
  }

  private static Response revoke(String cluster, String token) {
    return api.send(
        "POST", "/api/v1/clusters/" + cluster + "/credential/revoke", token, null, null, Map.of());
  }

  /**
   * The status of fetching a catalog no one uploaded with the credential: 404 when it is live, 401
   * when not.
   */
  private static int catalogFetch(String credential) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    holding.baseUrl() + "/api/v1/agent/catalogs/" + ChannelFixtures.DIGEST_2))
            .header("Authorization", "Bearer " + credential)
            .build();
    return HttpClient.newHttpClient()
        .send(request, HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static List<JsonObject> audit(String resource) {
    return api.get("/api/v1/audit?limit=500", ADMIN).items().stream()
        .map(JsonObject.class::cast)
        .filter(
            e ->
                e.getString("action").equals("cluster.revoke-credential")
                    && e.getString("resource").equals(resource))
        .toList();
  }
}
