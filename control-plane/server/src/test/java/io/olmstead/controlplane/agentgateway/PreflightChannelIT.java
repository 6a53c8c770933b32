package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightRequest;
import io.olmstead.controlplane.config.GatewaySettings;
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
 * Preflight over the agent channel with hand-driven agents: requests ride in each cluster's own
 * desired state, an answer counts only for the sender's open request, a schema-breaking answer
 * closes the connection, and a cluster whose agent never answers is held by the rollout as
 * PreflightUnavailable; a verdict the database refused is answered again after the reconnect it
 * causes.
 */
class PreflightChannelIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static Vertx agentVertx;

  @BeforeAll
  static void start() {
    cp =
        TestControlPlane.start(
            TestDatabase.create(PreflightChannelIT.class),
            Map.of(GatewaySettings.RESYNC_SECONDS, "300"));
    fixtures = new ChannelFixtures(cp.database());
    new RolloutFixtures(cp.database())
        .catalog(); // catalog demo: etcd 0.9.2 -> 0.9.4 in channel alpha
    fixtures.subscription("etcd", "region=eu", "0.9.2");
    agentVertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    agentVertx.close();
    cp.close();
  }

  private static void request(String cluster, String requestId) {
    fixtures.update(
        "INSERT INTO preflight_checks (subscription, cluster, version, requester, request_id) "
            + "VALUES ('etcd', ?, '0.9.4', 'preview', ?)",
        cluster,
        requestId);
  }

  private static Map<String, Object> row(String requestId) {
    return fixtures
        .query(
            "SELECT cluster, verdict, findings::text AS findings FROM preflight_checks "
                + "WHERE request_id = ?",
            requestId)
        .get(0);
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
  void anAnswerCountsOnlyForTheSendersOwnRequestAndAGarbageAnswerClosesTheConnection()
      throws Exception {
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
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> "Pass".equals(row("req-a").get("verdict")));
      assertThat(row("req-b").get("verdict")).isNull();

      // pf-b answers with a verdict the schema does not know: the connection closes, nothing is
      // stored
      b.send(
          "{\"type\":\"preflight\",\"protocol\":1,\"requestId\":\"req-b\",\"subscription\":\"etcd\","
              + "\"version\":\"0.9.4\",\"verdict\":\"Maybe\",\"findings\":[]}");
      assertThat(b.awaitClose()).isEqualTo(CloseReason.MALFORMED_MESSAGE.code());
      assertThat(row("req-b").get("verdict")).isNull();
    }
  }

  @Test
  void aVerdictTheDatabaseRefusesIsRetriedUntilItIsStored() throws Exception {
    String token = fixtures.enrollmentToken(1, 600, "{}", null);
    String cred = Enroll.credential(cp.baseUrl(), token, "pf-outage");
    // the outage: while test_outage has a row, every write of a verdict fails; the sequence counts
    // the refusals (a
    // sequence is not rolled back with the refused transaction)
    fixtures.update("CREATE TABLE test_outage (down boolean)");
    fixtures.update("CREATE SEQUENCE test_refusals");
    fixtures.update(
        "CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            + "IF EXISTS (SELECT 1 FROM test_outage) THEN PERFORM nextval('test_refusals'); "
            + "RAISE EXCEPTION 'the database is down (test)'; END IF; RETURN NEW; END $$");
    fixtures.update(
        "CREATE TRIGGER test_refuse BEFORE UPDATE ON preflight_checks FOR EACH ROW "
            + "WHEN (NEW.verdict IS NOT NULL) EXECUTE FUNCTION test_refuse()");
    try (RawAgent agent = RawAgent.connect(agentVertx, cp.port(), cred)) {
      agent.handshake();
      request("pf-outage", "req-outage");
      assertThat(nextRequests(agent))
          .extracting(PreflightRequest::requestId)
          .containsExactly("req-outage");
      fixtures.update("INSERT INTO test_outage VALUES (true)");

      // answered once, as an agent does on a connection
      agent.sendMessage(
          new Preflight(1, null, "req-outage", "etcd", "0.9.4", Preflight.PASS, List.of()));
      await().atMost(Duration.ofSeconds(20)).until(() -> refusals() >= 2);
      assertThat(row("req-outage").get("verdict")).isNull();

      fixtures.update("DELETE FROM test_outage");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> "Pass".equals(row("req-outage").get("verdict")));
    } finally {
      fixtures.update("DROP TRIGGER test_refuse ON preflight_checks");
    }
  }

  private static long refusals() {
    return ((Number)
            fixtures
                .query(
                    "SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM test_refusals")
                .get(0)
                .get("n"))
        .longValue();
  }

  @Test
  void aClusterWhoseAgentNeverAnswersIsHeldAsPreflightUnavailable() throws Exception {
    String token = fixtures.enrollmentToken(1, 600, "{}", null);
    String cred = Enroll.credential(cp.baseUrl(), token, "pf-silent");
    fixtures.labels("pf-silent", "{\"silent\":\"yes\"}");
    fixtures.update(
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, "
            + "version_kind, version_value, approval, created_by) VALUES ('etcd-silent', 'demo', 'etcd', 'alpha', "
            + "'etcd-silent', 'silent=yes', 'pin', '0.9.2', 'Automatic', 'test')");
    try (RawAgent silent = RawAgent.connect(agentVertx, cp.port(), cred)) {
      silent.handshake();
      ApiClient api = new ApiClient(cp);
      ApiClient.Response created =
          api.json(
              "POST",
              "/api/v1/rollouts",
              ADMIN,
              "{\"subscription\":\"etcd-silent\","
                  + "\"targetVersion\":\"0.9.4\",\"strategy\":{\"preflightTimeoutSeconds\":2}}");
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      String id = created.json().getString("id");
      assertThat(nextRequests(silent))
          .extracting(PreflightRequest::subscription)
          .containsExactly("etcd-silent");
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                JsonObject cluster =
                    (JsonObject)
                        api.get("/api/v1/rollouts/" + id + "/clusters", ADMIN).items().getValue(0);
                assertThat(cluster.getString("state")).isEqualTo("Blocked");
                // the reason vocabulary's code, the preflight outcome as its subject
                assertThat(cluster.getString("message"))
                    .startsWith("PreflightBlocked (no preflight verdict");
                assertThat(cluster.getString("approvedVersion")).isNull();
              });
      // every wave done, one cluster held: the rollout says so, naming it and why
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () -> {
                JsonObject rollout = api.get("/api/v1/rollouts/" + id, ADMIN).json();
                assertThat(rollout.getString("state")).isEqualTo("SucceededWithExceptions");
                assertThat(rollout.getString("message"))
                    .startsWith(
                        "1 of 1 cluster not at 0.9.4: pf-silent (Blocked: "
                            + "PreflightUnavailable");
              });
    }
  }
}
