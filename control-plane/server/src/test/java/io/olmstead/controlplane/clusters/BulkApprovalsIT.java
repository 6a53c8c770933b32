package io.olmstead.controlplane.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.http.DbSnapshot;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /approvals} on real PostgreSQL: the clusters approved are exactly those waiting for
 * the bundle, placed by the subscription, picked by the selector and visible to the caller's teams;
 * a bundle outside the channel is 422. Agents' reports are written as the gateway stores them (the
 * channel path is proven in ClusterApprovalsIT).
 */
class BulkApprovalsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static String operator;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(BulkApprovalsIT.class);
    api = new ApiClient(cp);
    operator = api.createToken(ADMIN, "bulk-approver", "operator", List.of());
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
    ok(api.json("PUT", "/api/v1/subscriptions/etcd", ADMIN, manual("env=prod", "etcd")), 201);
    ok(
        api.json(
            "PUT",
            "/api/v1/subscriptions/pay-etcd",
            ADMIN,
            manual("env=prod", "pay-etcd").put("team", "payments")),
        201);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels) VALUES "
            + "('eu-1', '{\"env\":\"prod\",\"region\":\"eu\"}'), ('eu-2', '{\"env\":\"prod\",\"region\":\"eu\"}'), "
            + "('us-1', '{\"env\":\"prod\",\"region\":\"us\"}'), ('dev-1', '{\"env\":\"dev\",\"region\":\"eu\"}'), "
            + "('eu-later', '{\"env\":\"prod\",\"region\":\"eu\"}'), "
            + "('pay-1', '{\"env\":\"prod\",\"region\":\"eu\",\"olmstead.io/team\":\"payments\"}')");
    for (String cluster : List.of("eu-1", "eu-2", "us-1", "dev-1")) {
      waiting("etcd", cluster, "etcd.v0.9.4");
    }
    waiting("etcd", "eu-later", "etcd.v1.0.0");
    waiting("pay-etcd", "pay-1", "etcd.v0.9.4");
    waiting("pay-etcd", "eu-1", "etcd.v0.9.4");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static JsonObject manual(String selector, String namespace) {
    return new JsonObject()
        .put("catalog", "community")
        .put("package", "etcd")
        .put("channel", "stable")
        .put("namespace", namespace)
        .put("placement", new JsonObject().put("selector", selector))
        .put("version", new JsonObject().put("follow", "channel"))
        .put("approval", "Manual");
  }

  /** What the gateway stores when an agent reports the subscription waiting for {@code bundle}. */
  private static void waiting(String subscription, String cluster, String bundle) {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_bundle, "
            + "phase, reason, conditions) VALUES ('"
            + subscription
            + "', '"
            + cluster
            + "', 'etcd.v0.9.2', "
            + "'RequiresApproval', 'RequiresApproval', '[{\"type\":\"RequiresApproval\",\"status\":\"True\","
            + "\"reason\":\"RequiresApproval\",\"message\":\""
            + bundle
            + "\"}]')");
  }

  private static Response ok(Response response, int status) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    return response;
  }

  private static Response bulk(String token, JsonObject body) {
    return api.json("POST", "/api/v1/approvals", token, body);
  }

  private static JsonObject request(String subscription, String bundle, String selector) {
    JsonObject body = new JsonObject().put("subscription", subscription).put("bundle", bundle);
    return selector == null ? body : body.put("selector", selector);
  }

  @Test
  void approvesExactlyTheWaitingPlacedSelectedClustersOnceAndAuditsIt() {
    Response first = ok(bulk(operator, request("etcd", "etcd.v0.9.4", "region=eu")), 200);
    // not us-1 (selector), not dev-1 (placement), not eu-later (waits for another bundle), not
    // pay-1 (not waiting)
    assertThat(first.json().getJsonArray("approved")).containsExactly("eu-1", "eu-2");
    assertThat(first.json().getJsonArray("alreadyApproved")).isEmpty();
    for (String cluster : List.of("eu-1", "eu-2")) {
      assertThat(ok(api.get("/api/v1/clusters/" + cluster + "/approvals", ADMIN), 200).items())
          .singleElement()
          .satisfies(
              a -> assertThat(((JsonObject) a).getString("bundle")).isEqualTo("etcd.v0.9.4"));
    }
    for (String cluster : List.of("us-1", "dev-1", "eu-later")) {
      assertThat(ok(api.get("/api/v1/clusters/" + cluster + "/approvals", ADMIN), 200).items())
          .as(cluster)
          .isEmpty();
    }

    Response again = ok(bulk(operator, request("etcd", "etcd.v0.9.4", "region=eu")), 200);
    assertThat(again.json().getJsonArray("approved")).isEmpty();
    assertThat(again.json().getJsonArray("alreadyApproved")).containsExactly("eu-1", "eu-2");

    JsonArray audit = ok(api.get("/api/v1/audit?limit=500", ADMIN), 200).items();
    assertThat(
            audit.stream()
                .map(JsonObject.class::cast)
                .filter(e -> e.getString("action").equals("approvals.bulk"))
                .filter(e -> e.getString("requestId").equals(first.header("X-Request-Id"))))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getString("resource")).isEqualTo("subscriptions/etcd");
              assertThat(e.getString("actor")).isEqualTo("token:bulk-approver");
              assertThat(e.getJsonObject("detail").getInteger("approvedCount")).isEqualTo(2);
            });
  }

  @Test
  void aBundleOutsideTheChannelABadSelectorOrAnUnknownSubscriptionIs422AndWritesNothing() {
    Map<String, String> before = DbSnapshot.of(cp.database());
    Map<JsonObject, String> cases =
        Map.of(
            request("etcd", "etcd.v9.9.9", null), "/bundle",
            request("etcd", "redis.v1.2.3", null), "/bundle",
            request("etcd", "etcd.v0.9.4", "region in (eu"), "/selector",
            request("missing", "etcd.v0.9.4", null), "/subscription");
    cases.forEach(
        (body, field) -> {
          Response response = bulk(operator, body);
          assertThat(response.status()).as(body + ": " + response.body()).isEqualTo(422);
          assertThat(response.header("content-type")).isEqualTo("application/problem+json");
          assertThat(response.json().getJsonArray("errors").getJsonObject(0).getString("field"))
              .isEqualTo(field);
        });
    assertThat(DbSnapshot.of(cp.database()).get("cluster_approvals"))
        .isEqualTo(before.get("cluster_approvals"));
  }

  @Test
  void aTeamScopedOperatorApprovesOnlyOnItsTeamsClustersAndAViewerNowhere() {
    String payments = api.createToken(ADMIN, "payments-bulk", "operator", List.of("payments"));
    // eu-1 waits for pay-etcd too, but it is not a payments cluster
    Response response = ok(bulk(payments, request("pay-etcd", "etcd.v0.9.4", null)), 200);
    assertThat(response.json().getJsonArray("approved")).containsExactly("pay-1");
    // the fleet-wide subscription is not visible to the team's token
    assertThat(bulk(payments, request("etcd", "etcd.v0.9.4", null)).status()).isEqualTo(422);
    String viewer = api.createToken(ADMIN, "bulk-viewer", "viewer", List.of());
    assertThat(bulk(viewer, request("etcd", "etcd.v0.9.4", null)).status()).isEqualTo(403);
  }
}
