package io.olmstead.controlplane.maturity;

import static io.olmstead.controlplane.catalog.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.catalog.ApiClient;
import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Maturity reports and diffs over REST on real PostgreSQL, with ../shared/catalogs/bundled uploaded
 * as a tar.gz.
 */
class MaturityIT {
  private static final String BASE = "/catalogs/bundled/packages/";
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    Path bundled = SharedFolder.require("catalogs/bundled");
    cp = TestControlPlane.start(MaturityIT.class);
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
    assertThat(api.putJson("/catalogs/bundled", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
    HttpResponse<String> up =
        api.post("/catalogs/bundled/revisions", CatalogFixtures.tarGz(bundled), "application/gzip");
    assertThat(up.statusCode()).as(up.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  private static List<String> rules(JsonArray findings) {
    return findings.stream().map(o -> ((JsonObject) o).getString("rule")).toList();
  }

  private static long storedReports() throws Exception {
    var db = cp.database();
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM bundle_maturity")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void reportOfEtcdNamesTheFourBrokenRulesAndIsStoredForEveryBundleOnce() throws Exception {
    // concurrent first requests share one computation; every bundle of the content is then stored
    var calls =
        List.of(
            CompletableFuture.supplyAsync(
                () -> api.get(BASE + "etcd/bundles/etcdoperator.v0.9.4/maturity")),
            CompletableFuture.supplyAsync(
                () -> api.get(BASE + "etcd/bundles/etcdoperator.v0.9.2/maturity")));
    HttpResponse<String> response = calls.get(0).join();
    assertThat(calls.get(1).join().statusCode()).isEqualTo(200);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonObject report = json(response);
    assertThat(report.getString("catalog")).isEqualTo("bundled");
    assertThat(report.getString("digest")).startsWith("sha256:");
    assertThat(rules(report.getJsonArray("findings")))
        .contains(
            "security/rbac-wildcard",
            "security/run-as-non-root",
            "robustness/container-resources",
            "consumability/crd-exposes-resources");
    assertThat(report.getJsonObject("scores").getInteger("security")).isZero();
    assertThat(storedReports()).isEqualTo(29);

    JsonObject again = json(api.get(BASE + "etcd/bundles/etcdoperator.v0.9.4/maturity"));
    assertThat(again).isEqualTo(report);
    assertThat(storedReports()).isEqualTo(29);
  }

  @Test
  void diffShowsTheTopologyUpgradeResolvingRunAsNonRoot() {
    HttpResponse<String> response =
        api.get(
            BASE
                + "rabbitmq-messaging-topology-operator/maturity-diff"
                + "?from=rabbitmq-messaging-topology-operator.v1.17.4&to=rabbitmq-messaging-topology-operator.v1.18.1");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonObject diff = json(response);
    assertThat(rules(diff.getJsonArray("resolved"))).contains("security/run-as-non-root");
    assertThat(rules(diff.getJsonArray("introduced"))).doesNotContain("security/run-as-non-root");
  }

  @Test
  void unknownCatalogPackageOrBundleIsProblemJson404() {
    for (String path :
        List.of(
            "/catalogs/nope/packages/etcd/bundles/etcdoperator.v0.9.4/maturity",
            BASE + "etcd/bundles/etcdoperator.v9.9.9/maturity",
            BASE + "nope/bundles/etcdoperator.v0.9.4/maturity",
            BASE + "etcd/maturity-diff?from=etcdoperator.v0.9.4&to=nope")) {
      HttpResponse<String> r = api.get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(404);
      assertThat(r.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    }
  }

  @Test
  void diffWithoutFromIs400ProblemJson() {
    HttpResponse<String> r = api.get(BASE + "etcd/maturity-diff?to=etcdoperator.v0.9.4");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
  }

  @Test
  void everyTeamCanReadReportsOfTheSharedCatalog() {
    String viewer =
        new io.olmstead.controlplane.http.ApiClient(cp)
            .createToken(
                TestControlPlane.ADMIN_TOKEN, "team-b-viewer", "viewer", List.of("team-b"));
    HttpResponse<String> r =
        new ApiClient(cp.baseUrl(), viewer)
            .get(
                BASE
                    + "rabbitmq-cluster-operator/bundles/rabbitmq-cluster-operator.v2.22.3/maturity");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(rules(json(r).getJsonArray("findings")))
        .doesNotContain(
            "security/rbac-wildcard",
            "security/run-as-non-root",
            "robustness/container-resources",
            "consumability/crd-exposes-resources");
  }

  @Test
  void catalogSummaryCountsTheHeadOfEveryChannelPageByPage() {
    JsonObject all = new JsonObject();
    String cursor = null;
    int pages = 0;
    do {
      HttpResponse<String> r =
          api.get(
              "/catalogs/bundled/maturity?limit=2" + (cursor == null ? "" : "&cursor=" + cursor));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      JsonObject page = json(r);
      assertThat(page.getJsonArray("items").size()).isLessThanOrEqualTo(2);
      page.getJsonArray("items").forEach(o -> all.put(((JsonObject) o).getString("package"), o));
      cursor = page.getString("nextCursor");
      pages++;
    } while (cursor != null && pages < 50);
    assertThat(pages).isGreaterThan(1);
    JsonObject topology = all.getJsonObject("rabbitmq-messaging-topology-operator");
    JsonObject head = topology.getJsonArray("heads").getJsonObject(0);
    JsonObject report =
        json(
            api.get(
                BASE
                    + "rabbitmq-messaging-topology-operator/bundles/"
                    + head.getString("bundle")
                    + "/maturity"));
    long errors =
        report.getJsonArray("findings").stream()
            .filter(o -> "error".equals(((JsonObject) o).getString("severity")))
            .count();
    long security =
        report.getJsonArray("findings").stream()
            .filter(o -> "security".equals(((JsonObject) o).getString("category")))
            .count();
    assertThat(head.getBoolean("reported")).isTrue();
    assertThat(head.getJsonObject("bySeverity").getLong("error")).isEqualTo(errors);
    assertThat(head.getJsonObject("byCategory").getLong("security"))
        .isEqualTo(security)
        .isPositive();
    assertThat(head.getJsonObject("scores")).isEqualTo(report.getJsonObject("scores"));
    assertThat(head.getString("declaredCapability"))
        .isEqualTo(report.getString("declaredCapability"));
    assertThat(head.getJsonArray("channels")).isNotEmpty();
    assertThat(topology.getJsonArray("channels").getJsonObject(0).getString("head")).isNotBlank();
    JsonObject etcd = all.getJsonObject("etcd");
    assertThat(
            etcd.getJsonArray("heads").stream()
                .map(o -> ((JsonObject) o).getJsonObject("bySeverity").getInteger("error")))
        .allMatch(n -> n > 0);
    assertThat(api.get("/catalogs/nope/maturity").statusCode()).isEqualTo(404);
  }

  private static JsonObject subscription(String pkg, String pin, JsonObject maturity) {
    return new JsonObject()
        .put("catalog", "bundled")
        .put("package", pkg)
        .put("namespace", "ops")
        .put("placement", new JsonObject().put("selector", "env=prod"))
        .put("version", new JsonObject().put("pin", pin))
        .put("approval", "Automatic")
        .put("requirements", new JsonObject().put("maturity", maturity));
  }

  private static final JsonArray FIRST_FOUR =
      new JsonArray()
          .add("security/rbac-wildcard")
          .add("security/run-as-non-root")
          .add("robustness/container-resources")
          .add("consumability/crd-exposes-resources");

  @Test
  void subscriptionWhoseBundleBreaksItsMaturityRequirementsIsRefusedWith422ListingTheFindings() {
    HttpResponse<String> refused =
        api.putJson(
            "/subscriptions/etcd-mature",
            subscription("etcd", "0.9.4", new JsonObject().put("forbid", FIRST_FOUR)),
            Map.of());
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
    JsonArray errors = json(refused).getJsonArray("errors");
    assertThat(errors.stream().map(o -> ((JsonObject) o).getString("message")).toList())
        .anyMatch(m -> m.contains("security/rbac-wildcard"))
        .anyMatch(m -> m.contains("security/run-as-non-root"))
        .allMatch(m -> m.contains("etcdoperator.v0.9.4"));
    assertThat(api.get("/subscriptions/etcd-mature").statusCode()).isEqualTo(404);
  }

  @Test
  void subscriptionWhoseBundleMeetsItsRequirementsIsStoredWithThem() {
    JsonObject maturity =
        new JsonObject().put("forbid", FIRST_FOUR).put("minCapability", "Basic Install");
    HttpResponse<String> created =
        api.putJson(
            "/subscriptions/rabbit-mature",
            subscription("rabbitmq-cluster-operator", "2.22.3", maturity),
            Map.of());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(
            json(api.get("/subscriptions/rabbit-mature"))
                .getJsonObject("requirements")
                .getJsonObject("maturity"))
        .isEqualTo(maturity);
  }

  @Test
  void unknownForbiddenRuleIsA422NamingTheField() {
    HttpResponse<String> r =
        api.putJson(
            "/subscriptions/etcd-typo",
            subscription(
                "etcd",
                "0.9.4",
                new JsonObject().put("forbid", new JsonArray().add("security/rbac-wildcards"))),
            Map.of());
    assertThat(r.statusCode()).isEqualTo(422);
    assertThat(json(r).getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/requirements/maturity/forbid/0");
  }
}
