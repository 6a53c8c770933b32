package io.olmstead.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's aggregates on real PostgreSQL: {@code /fleet/summary} (version x phase per
 * subscription, failures with the agent's reason), {@code /fleet/clusters-by-label}, {@code GET
 * /approvals} (waiting clusters, paged), {@code /clusters/{name}/subscriptions} and the new {@code
 * /clusters} filters; bad selectors and labels are 400 naming the parameter. Reports are written as
 * the agent gateway stores them.
 */
public class FleetSummaryIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(FleetSummaryIT.class);
    api = new ApiClient(cp);
    fixture(cp);
  }

  /**
   * Clusters eu-1 (connected), eu-2 (disconnected), us-1 (connected), us-2 (retired), bare-1
   * (pending, no region); etcd: 0.9.4 Succeeded on eu-1, 0.9.2 Failed on eu-2 (5 minutes ago) and
   * us-1 (1 minute ago) and us-2 (retired); other: waiting for approval of etcd.v0.9.4 on eu-1 and
   * us-1, of etcd.v0.9.2 on bare-1.
   */
  public static void fixture(TestControlPlane cp) {
    ApiClient api = new ApiClient(cp);
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
    for (String sub : List.of("etcd", "other")) {
      ok(
          api.json(
              "PUT",
              "/api/v1/subscriptions/" + sub,
              ADMIN,
              new JsonObject()
                  .put("catalog", "community")
                  .put("package", "etcd")
                  .put("channel", "stable")
                  .put("namespace", sub)
                  .put("placement", new JsonObject().put("selector", "env=prod"))
                  .put("version", new JsonObject().put("follow", "channel"))
                  .put("approval", "Manual")),
          201);
    }
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status) VALUES "
            + "('eu-1', '{\"env\":\"prod\",\"region\":\"eu\"}', 'connected'), "
            + "('eu-2', '{\"env\":\"prod\",\"region\":\"eu\"}', 'disconnected'), "
            + "('us-1', '{\"env\":\"prod\",\"region\":\"us\"}', 'connected'), "
            + "('us-2', '{\"env\":\"prod\",\"region\":\"us\"}', 'retired'), "
            + "('bare-1', '{\"env\":\"prod\"}', 'pending')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "target_version, phase, reason, message, conditions, updated_at) VALUES "
            + "('etcd', 'eu-1', '0.9.4', '0.9.4', 'Succeeded', NULL, NULL, '[]', now() - interval '1 hour'), "
            + "('etcd', 'eu-2', '0.9.2', '0.9.4', 'Failed', 'InstallCheckFailed', 'deployment etcd-operator not ready', "
            + "'[{\"type\":\"Installed\",\"status\":\"False\"}]', now() - interval '5 minutes'), "
            + "('etcd', 'us-1', '0.9.2', '0.9.4', 'Failed', 'ImagePullBackOff', 'quay.io/etcd:0.9.4 not found', '[]', "
            + "now() - interval '1 minute'), "
            + "('etcd', 'us-2', '0.9.2', NULL, 'Failed', 'Gone', 'retired', '[]', now()), "
            + "('other', 'eu-1', '0.9.2', NULL, 'RequiresApproval', 'RequiresApproval', NULL, "
            + "'[{\"type\":\"RequiresApproval\",\"status\":\"True\",\"message\":\"etcd.v0.9.4\"}]', now()), "
            + "('other', 'us-1', '0.9.2', NULL, 'RequiresApproval', 'RequiresApproval', NULL, "
            + "'[{\"type\":\"RequiresApproval\",\"status\":\"True\",\"message\":\"etcd.v0.9.4\"}]', now()), "
            + "('other', 'bare-1', NULL, NULL, 'RequiresApproval', 'RequiresApproval', NULL, "
            + "'[{\"type\":\"RequiresApproval\",\"status\":\"True\",\"message\":\"etcd.v0.9.2\"}]', now())");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void summaryCountsVersionsByPhaseAndListsTheLatestFailuresWithTheAgentsReason() {
    JsonObject etcd = sub(ok(api.get("/api/v1/fleet/summary", ADMIN), 200), "etcd");
    assertThat(etcd.getLong("clusters")).as("the retired us-2 is left out").isEqualTo(3);
    assertThat(etcd.getLong("failed")).isEqualTo(2);
    JsonArray versions = etcd.getJsonArray("versions");
    assertThat(versions.getJsonObject(0).getString("version")).isEqualTo("0.9.2");
    assertThat(versions.getJsonObject(0).getJsonObject("phases").getMap())
        .isEqualTo(Map.of("Failed", 2));
    assertThat(versions.getJsonObject(1).getJsonObject("phases").getMap())
        .isEqualTo(Map.of("Succeeded", 1));
    JsonArray failures = etcd.getJsonArray("failures");
    assertThat(failures).hasSize(2);
    assertThat(failures.getJsonObject(0).getString("cluster"))
        .as("the latest first")
        .isEqualTo("us-1");
    assertThat(failures.getJsonObject(0).getString("reason")).isEqualTo("ImagePullBackOff");
    assertThat(failures.getJsonObject(0).getString("message"))
        .isEqualTo("quay.io/etcd:0.9.4 not found");
    JsonObject other = sub(api.get("/api/v1/fleet/summary", ADMIN), "other");
    assertThat(
            other.getJsonArray("versions").stream().map(v -> ((JsonObject) v).getString("version")))
        .containsExactly("0.9.2", "none");
  }

  @Test
  void summaryFollowsTheSelectorTheFailureLimitAndPagesBySubscription() {
    JsonObject eu =
        sub(
            api.get("/api/v1/fleet/summary?selector=" + enc("region=eu") + "&failures=1", ADMIN),
            "etcd");
    assertThat(eu.getLong("clusters")).isEqualTo(2);
    assertThat(eu.getJsonArray("failures").getJsonObject(0).getString("cluster")).isEqualTo("eu-2");
    JsonObject first = ok(api.get("/api/v1/fleet/summary?limit=1&failures=1", ADMIN), 200).json();
    assertThat(first.getJsonArray("items")).hasSize(1);
    assertThat(sub(first, "etcd").getJsonArray("failures")).hasSize(1);
    JsonObject second =
        ok(
                api.get(
                    "/api/v1/fleet/summary?limit=1&cursor=" + first.getString("nextCursor"), ADMIN),
                200)
            .json();
    assertThat(second.getJsonArray("items").getJsonObject(0).getString("subscription"))
        .isEqualTo("other");
  }

  @Test
  void aDeletedClustersStatusRowsGoWithItAndAreNeverCounted() throws Exception {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, "
            + "version_kind, version_value, approval, created_by) VALUES ('zz-deleted', 'community', 'etcd', 'stable', "
            + "'zz', 'follow', 'channel', 'Automatic', 'test')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status) VALUES ('doomed-1', '{}', "
            + "'connected'), ('kept-1', '{}', 'connected')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "phase) VALUES ('zz-deleted', 'doomed-1', '0.9.2', 'Failed'), ('zz-deleted', 'kept-1', '0.9.2', 'Succeeded')");
    assertThat(sub(api.get("/api/v1/fleet/summary", ADMIN), "zz-deleted").getLong("clusters"))
        .isEqualTo(2);
    ok(api.send("DELETE", "/api/v1/clusters/doomed-1", ADMIN, null, null, Map.of()), 204);
    try (Connection c =
            DriverManager.getConnection(
                cp.database().jdbcUrl(), cp.database().user(), cp.database().password());
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT count(*) FROM subscription_status WHERE cluster = 'doomed-1'")) {
      rs.next();
      assertThat(rs.getLong(1)).as("the deleted cluster's status rows").isZero();
    }
    JsonObject after = sub(api.get("/api/v1/fleet/summary", ADMIN), "zz-deleted");
    assertThat(after.getLong("clusters")).isEqualTo(1);
    assertThat(after.getLong("failed")).isZero();
    assertThat(after.getJsonArray("failures")).isEmpty();
  }

  @Test
  void clustersByLabelCountsEachValueByConnectionState() {
    JsonObject byRegion =
        ok(api.get("/api/v1/fleet/clusters-by-label?label=region", ADMIN), 200).json();
    assertThat(byRegion.getBoolean("truncated")).isFalse();
    JsonArray items = byRegion.getJsonArray("items");
    assertThat(items).hasSize(3);
    JsonObject eu = items.getJsonObject(0);
    assertThat(eu.getString("value")).isEqualTo("eu");
    assertThat(
            List.of(
                eu.getLong("connected"),
                eu.getLong("disconnected"),
                eu.getLong("pending"),
                eu.getLong("retired"),
                eu.getLong("total")))
        .containsExactly(1L, 1L, 0L, 0L, 2L);
    JsonObject us = items.getJsonObject(1);
    assertThat(us.getString("value")).isEqualTo("us");
    assertThat(List.of(us.getLong("connected"), us.getLong("retired"), us.getLong("total")))
        .containsExactly(1L, 1L, 2L);
    assertThat(items.getJsonObject(2).getValue("value")).as("clusters without the label").isNull();
    assertThat(items.getJsonObject(2).getLong("pending")).isEqualTo(1);
    JsonArray onlyUs =
        ok(
                api.get(
                    "/api/v1/fleet/clusters-by-label?label=region&selector=" + enc("region=us"),
                    ADMIN),
                200)
            .json()
            .getJsonArray("items");
    assertThat(onlyUs).hasSize(1);
  }

  @Test
  void waitingApprovalsListEveryWaitingClusterWithItsBundlePaged() {
    JsonObject page = ok(api.get("/api/v1/approvals?limit=2", ADMIN), 200).json();
    assertThat(page.getJsonArray("items").stream().map(i -> ((JsonObject) i).getString("cluster")))
        .containsExactly("bare-1", "eu-1");
    assertThat(page.getJsonArray("items").getJsonObject(1).getString("bundle"))
        .isEqualTo("etcd.v0.9.4");
    JsonObject rest =
        ok(api.get("/api/v1/approvals?limit=2&cursor=" + page.getString("nextCursor"), ADMIN), 200)
            .json();
    assertThat(rest.getJsonArray("items").getJsonObject(0).getString("cluster")).isEqualTo("us-1");
    assertThat(rest.getString("nextCursor")).isNull();
    JsonArray eu =
        ok(api.get("/api/v1/approvals?subscription=other&selector=" + enc("region=eu"), ADMIN), 200)
            .json()
            .getJsonArray("items");
    assertThat(eu).hasSize(1);
    ok(
        api.json(
            "POST",
            "/api/v1/clusters/eu-1/approvals",
            ADMIN,
            new JsonObject().put("subscription", "other").put("bundle", "etcd.v0.9.4")),
        201);
    JsonObject approved =
        ok(api.get("/api/v1/approvals?selector=" + enc("region=eu"), ADMIN), 200)
            .json()
            .getJsonArray("items")
            .getJsonObject(0);
    assertThat(approved.getString("approvedBundle")).isEqualTo("etcd.v0.9.4");
  }

  @Test
  void clusterSubscriptionsShowWhatTheAgentReportedWithConditions() {
    JsonArray items =
        ok(api.get("/api/v1/clusters/eu-2/subscriptions", ADMIN), 200).json().getJsonArray("items");
    assertThat(items).hasSize(1);
    assertThat(items.getJsonObject(0).getString("reason")).isEqualTo("InstallCheckFailed");
    assertThat(items.getJsonObject(0).getJsonArray("conditions").getJsonObject(0).getString("type"))
        .isEqualTo("Installed");
    assertThat(api.get("/api/v1/clusters/ghost-1/subscriptions", ADMIN).status()).isEqualTo(404);
  }

  @Test
  void clustersFilterByNamePrefixAndBySubscriptionPhaseAndVersion() {
    assertThat(names(api.get("/api/v1/clusters?namePrefix=eu-", ADMIN)))
        .containsExactly("eu-1", "eu-2");
    assertThat(names(api.get("/api/v1/clusters?subscription=etcd&phase=Failed", ADMIN)))
        .containsExactly("eu-2", "us-1");
    assertThat(names(api.get("/api/v1/clusters?subscription=etcd&version=0.9.4", ADMIN)))
        .containsExactly("eu-1");
    assertThat(names(api.get("/api/v1/clusters?subscription=other&version=none", ADMIN)))
        .containsExactly("bare-1");
    Response noSub = api.get("/api/v1/clusters?phase=Failed", ADMIN);
    assertThat(noSub.status()).isEqualTo(400);
    assertThat(noSub.body()).contains("query.phase");
  }

  @Test
  void badSelectorsAndLabelsAre400NamingTheParameter() {
    for (String path :
        List.of(
            "/api/v1/fleet/summary?selector=",
            "/api/v1/approvals?selector=",
            "/api/v1/fleet/clusters-by-label?label=region&selector=")) {
      Response bad = api.get(path + enc("env in (prod"), ADMIN);
      assertThat(bad.status()).as(path).isEqualTo(400);
      assertThat(bad.body()).as(path).contains("query.selector");
    }
    for (String label : List.of("region=eu", "a,b", "-bad")) {
      Response bad = api.get("/api/v1/fleet/clusters-by-label?label=" + enc(label), ADMIN);
      assertThat(bad.status()).as(label).isEqualTo(400);
      assertThat(bad.body()).as(label).contains("query.label");
    }
    assertThat(api.get("/api/v1/fleet/clusters-by-label", ADMIN).status()).isEqualTo(400);
  }

  private static List<String> names(Response response) {
    return ok(response, 200).items().stream().map(i -> ((JsonObject) i).getString("name")).toList();
  }

  private static JsonObject sub(Response response, String name) {
    return sub(ok(response, 200).json(), name);
  }

  private static JsonObject sub(JsonObject summary, String name) {
    return summary.getJsonArray("items").stream()
        .map(JsonObject.class::cast)
        .filter(i -> name.equals(i.getString("subscription")))
        .findFirst()
        .orElseThrow();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static Response ok(Response response, int status) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    return response;
  }
}
