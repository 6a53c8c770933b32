package io.olmstead.controlplane.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelListener;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.apispec.protocol.Approve;
import io.olmstead.apispec.protocol.Condition;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.http.DbSnapshot;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Manual approvals over REST on real PostgreSQL, delivered to a real agent channel client as {@code
 * approve}.
 */
class ClusterApprovalsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static String operator;
  private static String viewer;
  private static Vertx agentVertx;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(ClusterApprovalsIT.class);
    api = new ApiClient(cp);
    operator = api.createToken(ADMIN, "approver", "operator", List.of());
    viewer = api.createToken(ADMIN, "onlooker", "viewer", List.of());
    ok(api.json("PUT", "/api/v1/catalogs/community", ADMIN, new JsonObject()), 201);
    ok(
        api.send(
            "POST",
            "/api/v1/catalogs/community/revisions",
            ADMIN,
            "application/x-ndjson",
            CatalogFixtures.etcdNdjson().getBytes(StandardCharsets.UTF_8),
            Map.of()),
        201);
    ok(api.json("PUT", "/api/v1/subscriptions/etcd", ADMIN, manual("env=prod")), 201);
    ok(api.json("PUT", "/api/v1/subscriptions/etcd-dev", ADMIN, manual("env=dev")), 201);
    // its own namespace: a no-team subscription of etcd in namespace etcd can select the payments
    // clusters too
    ok(
        api.json(
            "PUT",
            "/api/v1/subscriptions/pay-etcd",
            ADMIN,
            manual("env=prod").put("team", "payments").put("namespace", "pay-etcd")),
        201);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels) VALUES "
            + "('quiet-1', '{\"env\":\"prod\"}'), ('pay-1', '{\"env\":\"prod\",\"olmstead.io/team\":\"payments\"}')");
    agentVertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    agentVertx.close();
    cp.close();
  }

  private static JsonObject manual(String selector) {
    return new JsonObject()
        .put("catalog", "community")
        .put("package", "etcd")
        .put("channel", "stable")
        .put("namespace", "etcd")
        .put("placement", new JsonObject().put("selector", selector))
        .put("version", new JsonObject().put("follow", "channel"))
        .put("approval", "Manual");
  }

  private static Response ok(Response response, int status) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    return response;
  }

  private static Response approve(String cluster, String token, String body) {
    return api.send(
        "POST",
        "/api/v1/clusters/" + cluster + "/approvals",
        token,
        "application/json",
        body.getBytes(StandardCharsets.UTF_8),
        Map.of());
  }

  private static String approval(String subscription, String bundle) {
    return new JsonObject().put("subscription", subscription).put("bundle", bundle).encode();
  }

  private static String approvalsTable() {
    return DbSnapshot.of(cp.database()).get("cluster_approvals");
  }

  private static List<JsonObject> audit(String action, String resource) {
    return ok(api.get("/api/v1/audit?limit=500", ADMIN), 200).items().stream()
        .map(JsonObject.class::cast)
        .filter(
            e -> e.getString("action").equals(action) && e.getString("resource").equals(resource))
        .toList();
  }

  @Test
  void anApprovalReachesTheConnectedAgentForExactlyThatSubscriptionAndBundle() throws Exception {
    String enrollment =
        ok(
                api.json(
                    "POST",
                    "/api/v1/enrollment-tokens",
                    ADMIN,
                    new JsonObject()
                        .put("ttlSeconds", 600)
                        .put("maxUses", 1)
                        .put("labels", new JsonObject().put("env", "prod"))),
                201)
            .json()
            .getString("token");
    Recorder agent = new Recorder();
    ChannelOptions options =
        ChannelOptions.of(URI.create(cp.baseUrl()), "prod-eu-1", enrollment)
            .withLabels(Map.of("region", "eu"))
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));
    ChannelClient client =
        new ChannelClient(
            agentVertx,
            agentVertx.createHttpClient(),
            agentVertx.createWebSocketClient(),
            options,
            CredentialStorage.inMemory(),
            agent);
    client.start();
    try {
      await().atMost(Duration.ofSeconds(20)).until(() -> !agent.desired.isEmpty());
      // the agent holds the upgrade and says which bundle it waits for
      client.report(
          new SubscriptionStatus(
              "etcd",
              "etcd.v0.9.2",
              "0.9.2",
              "0.9.4",
              "RequiresApproval",
              "RequiresApproval",
              "approval required to install etcd.v0.9.4",
              List.of(
                  new Condition(
                      "RequiresApproval", "True", "RequiresApproval", "etcd.v0.9.4", null)),
              1L));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  ok(api.get("/api/v1/subscriptions/etcd/status", viewer), 200)
                      .json()
                      .getJsonObject("byPhase")
                      .containsKey("RequiresApproval"));
      assertThat(agent.approvals).isEmpty();

      Response created = ok(approve("prod-eu-1", operator, approval("etcd", "etcd.v0.9.4")), 201);
      assertThat(created.json().fieldNames())
          .containsExactlyInAnyOrder(
              "cluster", "subscription", "bundle", "approvedBy", "approvedAt");
      assertThat(created.json().getString("cluster")).isEqualTo("prod-eu-1");
      assertThat(created.json().getString("bundle")).isEqualTo("etcd.v0.9.4");
      assertThat(created.json().getString("approvedBy")).isEqualTo("token:approver");
      await().atMost(Duration.ofSeconds(10)).until(() -> !agent.approvals.isEmpty());
      assertThat(agent.approvals)
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.subscription()).isEqualTo("etcd");
                assertThat(a.bundle()).isEqualTo("etcd.v0.9.4");
              });

      List<JsonObject> entries = audit("cluster.approve", "clusters/prod-eu-1");
      assertThat(entries)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getString("outcome")).isEqualTo("success");
                assertThat(e.getString("actor")).isEqualTo("token:approver");
                assertThat(e.getString("requestId")).isEqualTo(created.header("X-Request-Id"));
                assertThat(e.getJsonObject("detail").getString("subscription")).isEqualTo("etcd");
                assertThat(e.getJsonObject("detail").getString("bundle")).isEqualTo("etcd.v0.9.4");
              });

      // the same approval again changes nothing
      Response again = ok(approve("prod-eu-1", operator, approval("etcd", "etcd.v0.9.4")), 200);
      assertThat(again.json().getString("approvedAt"))
          .isEqualTo(created.json().getString("approvedAt"));
      JsonArray listed = ok(api.get("/api/v1/clusters/prod-eu-1/approvals", viewer), 200).items();
      assertThat(listed).hasSize(1);
      assertThat(listed.getJsonObject(0)).isEqualTo(created.json());

      // another bundle replaces the approval, and the agent is told
      ok(approve("prod-eu-1", operator, approval("etcd", "etcd.v0.9.2")), 201);
      await().atMost(Duration.ofSeconds(10)).until(() -> agent.approvals.size() > 1);
      assertThat(agent.approvals.get(agent.approvals.size() - 1).bundle()).isEqualTo("etcd.v0.9.2");
      assertThat(ok(api.get("/api/v1/clusters/prod-eu-1/approvals", viewer), 200).items())
          .hasSize(1);
    } finally {
      client.stop().toCompletionStage().toCompletableFuture().get();
    }
  }

  @Test
  void anUnknownClusterIs404AndStoresNothing() {
    String before = approvalsTable();
    Response response = approve("no-such-cluster", operator, approval("etcd", "etcd.v0.9.4"));
    assertThat(response.status()).isEqualTo(404);
    assertThat(response.code()).isEqualTo("not-found");
    assertThat(response.header("content-type")).isEqualTo("application/problem+json");
    assertThat(approvalsTable()).isEqualTo(before);
    assertThat(audit("cluster.approve", "clusters/no-such-cluster"))
        .singleElement()
        .satisfies(e -> assertThat(e.getString("outcome")).isEqualTo("failure"));
    assertThat(api.get("/api/v1/clusters/no-such-cluster/approvals", viewer).status())
        .isEqualTo(404);
  }

  @Test
  void aViewerIsRefusedWith403() {
    String before = approvalsTable();
    Response response = approve("quiet-1", viewer, approval("etcd", "etcd.v0.9.4"));
    assertThat(response.status()).isEqualTo(403);
    assertThat(response.code()).isEqualTo("forbidden");
    assertThat(approvalsTable()).isEqualTo(before);
  }

  @Test
  void aSubscriptionThatDoesNotExistOrDoesNotPlaceOnTheClusterIs422() {
    String before = approvalsTable();
    for (String subscription : new String[] {"missing", "etcd-dev"}) {
      Response response = approve("quiet-1", operator, approval(subscription, "etcd.v0.9.4"));
      assertThat(response.status()).as(subscription + ": " + response.body()).isEqualTo(422);
      assertThat(response.code()).isEqualTo("validation-failed");
      assertThat(response.json().getJsonArray("errors").getJsonObject(0).getString("field"))
          .isEqualTo("/subscription");
    }
    assertThat(approvalsTable()).isEqualTo(before);
  }

  @Test
  void aBundleThatIsNotInTheSubscriptionsChannelIs422NamingTheBundle() {
    String before = approvalsTable();
    Response response = approve("quiet-1", operator, approval("etcd", "etcd.v9.9.9"));
    assertThat(response.status()).as(response.body()).isEqualTo(422);
    assertThat(response.json().getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/bundle");
    assertThat(response.json().getString("detail")).contains("etcd.v9.9.9").contains("stable");
    assertThat(approvalsTable()).isEqualTo(before);
  }

  @Test
  void badInputIsAProblemAndWritesNothing() {
    Map<String, String> snapshot = DbSnapshot.of(cp.database());
    Map<String, Integer> cases =
        Map.of(
            "{\"subscription\":\"etcd\"}",
            422,
            "{\"subscription\":\"etcd\",\"bundle\":\"etcd.v0.9.4\",\"force\":true}",
            422,
            "{\"subscription\":\"etcd\",\"bundle\":\"\"}",
            422,
            "{\"subscription\":\"etcd\",\"bundle\":\"" + "b".repeat(254) + "\"}",
            422,
            "{\"subscription\":\"Not_A_Name\",\"bundle\":\"etcd.v0.9.4\"}",
            422,
            "{\"subscription\":\"etcd\",\"bundle\":",
            400);
    cases.forEach(
        (body, status) -> {
          Response response = approve("quiet-1", operator, body);
          assertThat(response.status()).as(body + ": " + response.body()).isEqualTo(status);
          assertThat(response.header("content-type")).isEqualTo("application/problem+json");
          assertThat(response.code())
              .isEqualTo(status == 400 ? "bad-request" : "validation-failed");
        });
    Map<String, String> after = DbSnapshot.of(cp.database());
    assertThat(after.get("cluster_approvals")).isEqualTo(snapshot.get("cluster_approvals"));
    assertThat(after.get("audit_log")).isEqualTo(snapshot.get("audit_log"));
  }

  @Test
  void aTeamScopedOperatorApprovesOnlyItsTeamsSubscriptionsOnItsTeamsClusters() {
    String payments = api.createToken(ADMIN, "payments-operator", "operator", List.of("payments"));
    ok(approve("pay-1", payments, approval("pay-etcd", "etcd.v0.9.4")), 201);
    // a cluster outside the team is answered as if it did not exist
    assertThat(approve("quiet-1", payments, approval("etcd", "etcd.v0.9.4")).status())
        .isEqualTo(404);
    // a fleet-wide subscription places on pay-1, but the team's token does not see it
    assertThat(approve("pay-1", payments, approval("etcd", "etcd.v0.9.4")).status()).isEqualTo(422);
    assertThat(ok(api.get("/api/v1/clusters/pay-1/approvals", payments), 200).items()).hasSize(1);
    assertThat(api.get("/api/v1/clusters/quiet-1/approvals", payments).status()).isEqualTo(404);
  }

  /** Records what the channel delivers. */
  private static final class Recorder implements ChannelListener {
    final List<Desired> desired = new CopyOnWriteArrayList<>();
    final List<Approve> approvals = new CopyOnWriteArrayList<>();

    @Override
    public void onDesired(Desired d) {
      desired.add(d);
    }

    @Override
    public void onApprove(Approve approve) {
      approvals.add(approve);
    }
  }
}
