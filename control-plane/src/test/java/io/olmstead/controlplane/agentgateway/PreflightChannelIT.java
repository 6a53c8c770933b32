package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightRequest;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Preflight over the agent channel with hand-driven agents: requests ride in each cluster's own desired state, an
 * answer counts only for the sender's open request, a schema-breaking answer closes the connection, and a cluster
 * whose agent never answers is held by the rollout as PreflightUnavailable; a verdict the database refused is answered
 * again after the reconnect it causes.
 */
class PreflightChannelIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static Vertx agentVertx;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TestDatabase.create(PreflightChannelIT.class),
        Map.of(GatewaySettings.RESYNC_SECONDS, "300"));
    fixtures = new ChannelFixtures(cp.database());
    new RolloutFixtures(cp.database()).catalog(); // catalog demo: etcd 0.9.2 -> 0.9.4 in channel alpha
    fixtures.subscription("etcd", "region=eu", "0.9.2");
    agentVertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    agentVertx.close();
    cp.close();
  }

  private static void request(String cluster, String requestId) {
    fixtures.update("INSERT INTO preflight_checks (subscription, cluster, version, requester, request_id) "
        + "VALUES ('etcd', ?, '0.9.4', 'preview', ?)", cluster, requestId);
  }

  private static Map<String, Object> row(String requestId) {
    return fixtures.query("SELECT cluster, verdict, findings::text AS findings FROM preflight_checks "
        + "WHERE request_id = ?", requestId).get(0);
  }

  /** The preflight requests of the next desired state that has any. */
  private static List<PreflightRequest> nextRequests(RawAgent agent) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      Desired desired = agent.next(Desired.class);
      if (!desired.preflightRequests().isEmpty()) {
        return desired.preflightRequests();
      }
    }
    throw new AssertionError("no desired state with preflight requests");
  }

  @Test
  void anAnswerCountsOnlyForTheSendersOwnRequestAndAGarbageAnswerClosesTheConnection() throws Exception {
    String token = fixtures.enrollmentToken(2, 600, "{}", null);
    String credA = Enroll.credential(cp.baseUrl(), token, "pf-a");
    String credB = Enroll.credential(cp.baseUrl(), token, "pf-b");
    try (RawAgent a = RawAgent.connect(agentVertx, cp.port(), credA);
         RawAgent b = RawAgent.connect(agentVertx, cp.port(), credB)) {
      a.handshake();
      b.handshake();
      request("pf-a", "req-a");
      request("pf-b", "req-b");
      List<PreflightRequest> forA = nextRequests(a);
      assertThat(forA).extracting(PreflightRequest::requestId).containsExactly("req-a");
      assertThat(forA.get(0).version()).isEqualTo("0.9.4");
      assertThat(nextRequests(b)).extracting(PreflightRequest::requestId).containsExactly("req-b");

      // pf-a answers pf-b's request: nothing changes; then its own: stored
      a.sendMessage(new Preflight(1, null, "req-b", "etcd", "0.9.4", Preflight.PASS, List.of()));
      a.sendMessage(new Preflight(1, null, "req-a", "etcd", "0.9.4", Preflight.PASS, List.of()));
      await().atMost(Duration.ofSeconds(10)).until(() -> "Pass".equals(row("req-a").get("verdict")));
      assertThat(row("req-b").get("verdict")).isNull();

      // pf-b answers with a verdict the schema does not know: the connection closes, nothing is stored
      b.send("{\"type\":\"preflight\",\"protocol\":1,\"requestId\":\"req-b\",\"subscription\":\"etcd\","
          + "\"version\":\"0.9.4\",\"verdict\":\"Maybe\",\"findings\":[]}");
      assertThat(b.awaitClose()).isEqualTo(CloseReason.MALFORMED_MESSAGE.code());
      assertThat(row("req-b").get("verdict")).isNull();
    }
  }

  @Test
  void aVerdictThatCannotBeStoredClosesTheConnectionAndTheAgentAnswersAgainAfterItReconnects() throws Exception {
    String token = fixtures.enrollmentToken(1, 600, "{}", null);
    String cred = Enroll.credential(cp.baseUrl(), token, "pf-retry");
    // the database refuses this cluster's answer, as a primary going away under the write would
    fixtures.update("CREATE FUNCTION pf_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        + "RAISE EXCEPTION 'refused for the test'; END $$");
    fixtures.update("CREATE TRIGGER pf_refuse BEFORE UPDATE ON preflight_checks FOR EACH ROW "
        + "WHEN (NEW.cluster = 'pf-retry') EXECUTE FUNCTION pf_refuse()");
    request("pf-retry", "req-retry");
    try (RawAgent first = RawAgent.connect(agentVertx, cp.port(), cred)) {
      first.handshake();
      assertThat(nextRequests(first)).extracting(PreflightRequest::requestId).containsExactly("req-retry");
      first.sendMessage(new Preflight(1, null, "req-retry", "etcd", "0.9.4", Preflight.PASS, List.of()));
      assertThat(first.awaitClose()).isEqualTo(CloseReason.TRY_AGAIN_LATER.code());
    }
    assertThat(row("req-retry").get("verdict")).isNull();
    fixtures.update("DROP TRIGGER pf_refuse ON preflight_checks");
    try (RawAgent again = RawAgent.connect(agentVertx, cp.port(), cred)) {
      again.handshake();
      assertThat(nextRequests(again)).extracting(PreflightRequest::requestId).containsExactly("req-retry");
      again.sendMessage(new Preflight(1, null, "req-retry", "etcd", "0.9.4", Preflight.PASS, List.of()));
      await().atMost(Duration.ofSeconds(10)).until(() -> "Pass".equals(row("req-retry").get("verdict")));
    }
  }

  @Test
  void aClusterWhoseAgentNeverAnswersIsHeldAsPreflightUnavailable() throws Exception {
    String token = fixtures.enrollmentToken(1, 600, "{}", null);
    String cred = Enroll.credential(cp.baseUrl(), token, "pf-silent");
    fixtures.labels("pf-silent", "{\"silent\":\"yes\"}");
    fixtures.update("INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, "
        + "version_kind, version_value, approval, created_by) VALUES ('etcd-silent', 'demo', 'etcd', 'alpha', "
        + "'etcd-silent', 'silent=yes', 'pin', '0.9.2', 'Automatic', 'test')");
    try (RawAgent silent = RawAgent.connect(agentVertx, cp.port(), cred)) {
      silent.handshake();
      ApiClient api = new ApiClient(cp);
      ApiClient.Response created = api.json("POST", "/api/v1/rollouts", ADMIN, "{\"subscription\":\"etcd-silent\","
          + "\"targetVersion\":\"0.9.4\",\"strategy\":{\"preflightTimeoutSeconds\":2}}");
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      String id = created.json().getString("id");
      assertThat(nextRequests(silent)).extracting(PreflightRequest::subscription).containsExactly("etcd-silent");
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
        JsonObject cluster = (JsonObject) api.get("/api/v1/rollouts/" + id + "/clusters", ADMIN).items().getValue(0);
        assertThat(cluster.getString("state")).isEqualTo("Blocked");
        assertThat(cluster.getString("message")).startsWith("PreflightUnavailable");
        assertThat(cluster.getString("approvedVersion")).isNull();
      });
    }
  }
}
