package io.olmstead.controlplane.subscription;

import static io.olmstead.controlplane.catalog.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.catalog.ApiClient;
import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fleet subscriptions on real PostgreSQL: validation against the catalog, placement, status, in-use
 * catalogs.
 */
class SubscriptionsIT {
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(SubscriptionsIT.class);
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
    assertThat(api.putJson("/catalogs/community", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
    HttpResponse<String> upload =
        api.post(
            "/catalogs/community/revisions",
            CatalogFixtures.etcdNdjson().getBytes(StandardCharsets.UTF_8),
            "application/x-ndjson");
    assertThat(upload.statusCode()).as(upload.body()).isEqualTo(201);
    for (String[] c :
        new String[][] {
          {"prod-eu-1", "{\"env\":\"prod\",\"region\":\"eu\"}"},
          {"prod-us-1", "{\"env\":\"prod\",\"region\":\"us\"}"},
          {"prod-eu-canary", "{\"env\":\"prod\",\"region\":\"eu\",\"canary\":\"true\"}"},
          {"dev-1", "{\"env\":\"dev\",\"olmstead.io/team\":\"payments\"}"}
        }) {
      ApiClient.sql(
          cp.database(),
          "INSERT INTO clusters (name, labels, status) VALUES ('"
              + c[0]
              + "', '"
              + c[1]
              + "'::jsonb, 'connected')");
    }
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  // each subscription gets a namespace of its own: two for one package and namespace may not
  // overlap (409)
  private static final java.util.concurrent.atomic.AtomicInteger NAMESPACES =
      new java.util.concurrent.atomic.AtomicInteger();

  static JsonObject spec(JsonObject version) {
    String namespace = "etcd-" + NAMESPACES.incrementAndGet();
    return new JsonObject()
        .put("catalog", "community")
        .put("package", "etcd")
        .put("channel", "stable")
        .put("namespace", namespace)
        .put("targetNamespaces", new JsonArray().add(namespace))
        .put("placement", new JsonObject().put("selector", "env=prod,region in (eu,us),!canary"))
        .put("version", version)
        .put("approval", "Automatic");
  }

  static JsonObject follow() {
    return spec(new JsonObject().put("follow", "channel"));
  }

  @Test
  void putCreatesReadsBackAndReplacesUnderIfMatch() {
    HttpResponse<String> created =
        api.putJson(
            "/subscriptions/etcd-a",
            follow()
                .put(
                    "config",
                    new JsonObject()
                        .put(
                            "env",
                            new JsonArray()
                                .add(new JsonObject().put("name", "A").put("value", "1"))))
                .put("removal", new JsonObject().put("crds", "Delete")),
            Map.of());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.headers().firstValue("ETag")).hasValue("\"1\"");
    JsonObject read = json(api.get("/subscriptions/etcd-a"));
    assertThat(read.getString("package")).isEqualTo("etcd");
    assertThat(read.getJsonObject("version").getString("follow")).isEqualTo("channel");
    assertThat(read.getJsonObject("removal").getString("crds")).isEqualTo("Delete");
    assertThat(read.getJsonObject("config").getJsonArray("env")).hasSize(1);
    assertThat(read.getInteger("generation")).isEqualTo(1);

    HttpResponse<String> replaced =
        api.putJson(
            "/subscriptions/etcd-a",
            spec(new JsonObject().put("pin", "0.9.2")),
            Map.of("If-Match", "\"1\""));
    assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(200);
    assertThat(json(replaced).getInteger("generation")).isEqualTo(2);
    assertThat(json(replaced).getInteger("resourceVersion")).isEqualTo(2);

    Map<String, Long> before = ApiClient.counts(cp.database());
    HttpResponse<String> stale =
        api.putJson("/subscriptions/etcd-a", follow(), Map.of("If-Match", "\"1\""));
    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
  }

  @Test
  void rejectsWhatTheCatalogDoesNotHaveWith422AndStoresNothing() {
    Map<String, Long> before = ApiClient.counts(cp.database());
    Map<JsonObject, String> cases =
        Map.of(
            follow().put("package", "nope"), "/package",
            follow().put("channel", "beta"), "/channel",
            spec(new JsonObject().put("pin", "0.9.3")), "/version/pin",
            spec(new JsonObject().put("pin", "v1")), "/version/pin",
            spec(new JsonObject().put("range", ">=5.0.0")), "/version/range",
            spec(new JsonObject().put("range", "^^1")), "/version/range",
            follow().put("placement", new JsonObject().put("selector", "env in (")),
                "/placement/selector",
            follow().put("catalog", "missing"), "/catalog");
    cases.forEach(
        (body, field) -> {
          HttpResponse<String> response = api.putJson("/subscriptions/bad", body, Map.of());
          assertThat(response.statusCode()).as(field + ": " + response.body()).isEqualTo(422);
          assertThat(json(response).getJsonArray("errors").getJsonObject(0).getString("field"))
              .isEqualTo(field);
        });
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
  }

  @Test
  void schemaViolationsAre422ValidationFailures() {
    HttpResponse<String> unknownField =
        api.putJson("/subscriptions/bad-shape", follow().put("colour", "red"), Map.of());
    assertThat(unknownField.statusCode()).isEqualTo(422);
    assertThat(json(unknownField).getString("code")).isEqualTo("validation-failed");
    HttpResponse<String> badEnum =
        api.putJson(
            "/subscriptions/bad-shape", follow().copy().put("approval", "Sometimes"), Map.of());
    assertThat(badEnum.statusCode()).isEqualTo(422);
    assertThat(json(badEnum).getString("code")).isEqualTo("validation-failed");
    assertThat(api.get("/subscriptions/bad-shape").statusCode()).isEqualTo(404);
  }

  @Test
  void rangeIsAcceptedWhenABundleOfTheChannelMatches() {
    HttpResponse<String> response =
        api.putJson(
            "/subscriptions/etcd-range",
            spec(new JsonObject().put("range", ">=0.9.0 <0.9.4")),
            Map.of());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
  }

  @Test
  void placementListsTheClustersTheSelectorOrNamesSelect() {
    JsonObject body =
        follow()
            .put(
                "placement",
                new JsonObject()
                    .put("selector", "env=prod,!canary")
                    .put("clusters", new JsonArray().add("dev-1")));
    assertThat(api.putJson("/subscriptions/etcd-placed", body, Map.of()).statusCode())
        .isEqualTo(201);
    JsonObject page = json(api.get("/subscriptions/etcd-placed/placement?limit=2"));
    JsonArray items = page.getJsonArray("items");
    assertThat(items.stream().map(o -> ((JsonObject) o).getString("name")).toList())
        .containsExactly("dev-1", "prod-eu-1");
    assertThat(items.getJsonObject(0).getString("status")).isEqualTo("connected");
    JsonObject rest =
        json(
            api.get("/subscriptions/etcd-placed/placement?cursor=" + page.getString("nextCursor")));
    assertThat(
            rest.getJsonArray("items").stream()
                .map(o -> ((JsonObject) o).getString("name"))
                .toList())
        .containsExactly("prod-us-1");
  }

  @Test
  void statusReportsTotalsByVersionAndPhaseAndPagesItems() {
    assertThat(api.putJson("/subscriptions/etcd-status", follow(), Map.of()).statusCode())
        .isEqualTo(201);
    ApiClient.sql(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_bundle, "
            + "installed_version, target_version, phase, reason, message, seq) VALUES "
            + "('etcd-status', 'prod-eu-1', 'etcd.v0.9.4', '0.9.4', '0.9.4', 'Succeeded', 'InstallSucceeded', 'ok', 3),"
            + "('etcd-status', 'prod-us-1', 'etcd.v0.9.2', '0.9.2', '0.9.4', 'Installing', 'Upgrading', null, 5)");
    ApiClient.sql(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, phase, "
            + "gone) VALUES ('etcd-status', 'old-cluster', '0.9.0', 'Succeeded', true)");
    JsonObject status = json(api.get("/subscriptions/etcd-status/status?limit=1"));
    assertThat(status.getInteger("clusters")).isEqualTo(2);
    assertThat(status.getJsonObject("byVersion").getMap())
        .containsEntry("0.9.4", 1)
        .containsEntry("0.9.2", 1)
        .doesNotContainKey("0.9.0");
    assertThat(status.getJsonObject("byPhase").getMap())
        .containsEntry("Succeeded", 1)
        .containsEntry("Installing", 1);
    JsonObject item = status.getJsonArray("items").getJsonObject(0);
    assertThat(item.getString("cluster")).isEqualTo("prod-eu-1");
    assertThat(item.getString("installedVersion")).isEqualTo("0.9.4");
    assertThat(item.getString("reason")).isEqualTo("InstallSucceeded");
    JsonObject next =
        json(api.get("/subscriptions/etcd-status/status?cursor=" + status.getString("nextCursor")));
    assertThat(next.getJsonArray("items").getJsonObject(0).getString("cluster"))
        .isEqualTo("prod-us-1");
    assertThat(next.getString("nextCursor")).isNull();
  }

  @Test
  void catalogInUseCannotBeDeletedUntilItsSubscriptionsAre() {
    assertThat(api.putJson("/catalogs/in-use", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
    assertThat(
            api.post(
                    "/catalogs/in-use/revisions",
                    CatalogFixtures.redisNdjson().getBytes(StandardCharsets.UTF_8),
                    "application/x-ndjson")
                .statusCode())
        .isEqualTo(201);
    JsonObject body =
        follow().put("catalog", "in-use").put("package", "redis").put("channel", "alpha");
    assertThat(api.putJson("/subscriptions/redis-a", body, Map.of()).statusCode()).isEqualTo(201);
    Map<String, Long> before = ApiClient.counts(cp.database());
    HttpResponse<String> refused = api.delete("/catalogs/in-use", Map.of());
    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(json(refused).getString("detail")).contains("redis-a");
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
    assertThat(api.delete("/subscriptions/redis-a", Map.of("If-Match", "\"7\"")).statusCode())
        .isEqualTo(412);
    assertThat(api.delete("/subscriptions/redis-a", Map.of()).statusCode()).isEqualTo(204);
    assertThat(api.get("/subscriptions/redis-a").statusCode()).isEqualTo(404);
    assertThat(api.delete("/catalogs/in-use", Map.of()).statusCode()).isEqualTo(204);
  }

  @Test
  void listIsOrderedByNameAndPaged() {
    for (String n : List.of("list-a", "list-b", "list-c")) {
      assertThat(api.putJson("/subscriptions/" + n, follow(), Map.of()).statusCode())
          .isEqualTo(201);
    }
    JsonObject first = json(api.get("/subscriptions?limit=2"));
    assertThat(first.getJsonArray("items")).hasSize(2);
    JsonObject rest =
        json(api.get("/subscriptions?limit=500&cursor=" + first.getString("nextCursor")));
    List<String> names = new java.util.ArrayList<>();
    first.getJsonArray("items").forEach(o -> names.add(((JsonObject) o).getString("name")));
    rest.getJsonArray("items").forEach(o -> names.add(((JsonObject) o).getString("name")));
    assertThat(names).isSorted().doesNotHaveDuplicates().contains("list-a", "list-b", "list-c");
  }

  @Test
  void desiredStateFromTheDatabaseGivesEachClusterItsCeiling() throws Exception {
    assertThat(
            api.putJson(
                    "/subscriptions/desired-range",
                    spec(new JsonObject().put("range", "<0.9.4"))
                        .put(
                            "placement",
                            new JsonObject().put("clusters", new JsonArray().add("prod-us-1"))),
                    Map.of())
                .statusCode())
        .isEqualTo(201);
    var pool = cp.controlPlane().pool();
    Map<String, CatalogView> views =
        CatalogViews.forSubscriptions(pool)
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, java.util.concurrent.TimeUnit.SECONDS);
    List<Subscription> all =
        new SubscriptionStore()
            .all(pool)
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, java.util.concurrent.TimeUnit.SECONDS);
    List<ComputedSubscription> desired =
        DesiredState.forCluster(
            new DesiredState.Cluster("prod-us-1", Map.of("env", "prod", "region", "us")),
            all,
            views);
    ComputedSubscription range =
        desired.stream().filter(d -> d.name().equals("desired-range")).findFirst().orElseThrow();
    assertThat(range.maxVersion()).isEqualTo("0.9.2");
    assertThat(range.startingBundle()).isEqualTo("etcd.v0.9.2");
    assertThat(range.catalogDigest()).startsWith("sha256:");
    assertThat(range.blockedReason()).isNull();
    assertThat(
            DesiredState.forCluster(
                new DesiredState.Cluster("prod-eu-1", Map.of("env", "dev")), all, views))
        .extracting(ComputedSubscription::name)
        .doesNotContain("desired-range");
  }

  private static ApiClient tokenClient(String name, String role, JsonArray teams) {
    HttpResponse<String> created =
        api.send(
            "POST",
            "/tokens",
            new JsonObject()
                .put("name", name)
                .put("role", role)
                .put("teams", teams)
                .encode()
                .getBytes(StandardCharsets.UTF_8),
            "application/json",
            Map.of());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return new ApiClient(cp.baseUrl(), json(created).getString("token"));
  }

  @Test
  void teamScopedOperatorsSeeAndChangeOnlyTheirTeamsSubscriptionsAndViewersChangeNothing() {
    ApiClient payments = tokenClient("payments-op", "operator", new JsonArray().add("payments"));
    ApiClient viewer = tokenClient("plain-viewer", "viewer", new JsonArray());
    assertThat(api.putJson("/subscriptions/fleet-wide", follow(), Map.of()).statusCode())
        .isEqualTo(201);

    assertThat(payments.putJson("/subscriptions/pay-etcd", follow(), Map.of()).statusCode())
        .isEqualTo(403);
    assertThat(
            payments
                .putJson("/subscriptions/pay-etcd", follow().put("team", "other"), Map.of())
                .statusCode())
        .isEqualTo(403);
    assertThat(
            payments
                .putJson(
                    "/subscriptions/pay-etcd",
                    follow()
                        .put("team", "payments")
                        .put(
                            "placement",
                            new JsonObject()
                                .put("clusters", new JsonArray().add("prod-eu-1").add("dev-1"))),
                    Map.of())
                .statusCode())
        .isEqualTo(201);
    assertThat(
            json(payments.get("/subscriptions?limit=500")).getJsonArray("items").stream()
                .map(o -> ((JsonObject) o).getString("name"))
                .toList())
        .containsExactly("pay-etcd");
    assertThat(payments.get("/subscriptions/fleet-wide").statusCode()).isEqualTo(404);
    assertThat(
            payments
                .putJson("/subscriptions/fleet-wide", follow().put("team", "payments"), Map.of())
                .statusCode())
        .isEqualTo(403);
    assertThat(payments.delete("/subscriptions/fleet-wide", Map.of()).statusCode()).isEqualTo(404);
    // a team subscription only places on its team's clusters
    assertThat(
            json(payments.get("/subscriptions/pay-etcd/placement")).getJsonArray("items").stream()
                .map(o -> ((JsonObject) o).getString("name"))
                .toList())
        .containsExactly("dev-1");

    assertThat(viewer.get("/subscriptions/pay-etcd").statusCode()).isEqualTo(200);
    assertThat(viewer.putJson("/subscriptions/viewer-try", follow(), Map.of()).statusCode())
        .isEqualTo(403);
    assertThat(viewer.delete("/subscriptions/pay-etcd", Map.of()).statusCode()).isEqualTo(403);
    assertThat(
            payments
                .putJson("/catalogs/not-for-operators", new JsonObject(), Map.of())
                .statusCode())
        .isEqualTo(403);
  }
}
