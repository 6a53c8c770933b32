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
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two subscriptions for one package and namespace whose placements can overlap are refused (409
 * naming the first), since on a shared cluster they would fight over the operator's objects (issue
 * 12, broken flow 13).
 */
class SubscriptionConflictsIT {
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(SubscriptionConflictsIT.class);
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
    assertThat(api.putJson("/catalogs/community", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
    assertThat(
            api.post(
                    "/catalogs/community/revisions",
                    CatalogFixtures.etcdNdjson().getBytes(StandardCharsets.UTF_8),
                    "application/x-ndjson")
                .statusCode())
        .isEqualTo(201);
    ApiClient.sql(
        cp.database(),
        "INSERT INTO clusters (name, labels, status) VALUES "
            + "('prod-1', '{\"env\":\"prod\"}'::jsonb, 'connected'), ('lab-1', '{\"env\":\"lab\"}'::jsonb, 'connected')");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static JsonObject sub(String namespace, JsonObject placement) {
    return new JsonObject()
        .put("catalog", "community")
        .put("package", "etcd")
        .put("channel", "stable")
        .put("namespace", namespace)
        .put("placement", placement)
        .put("version", new JsonObject().put("follow", "channel"))
        .put("approval", "Automatic");
  }

  private static JsonObject selector(String s) {
    return new JsonObject().put("selector", s);
  }

  @Test
  void aSecondSubscriptionOnAnOverlappingPlacementIs409NamingTheFirstAndStoresNothing() {
    assertThat(
            api.putJson("/subscriptions/first", sub("shared", selector("env=prod")), Map.of())
                .statusCode())
        .isEqualTo(201);
    Map<String, Long> before = ApiClient.counts(cp.database());
    HttpResponse<String> refused =
        api.putJson("/subscriptions/second", sub("shared", selector("region=eu")), Map.of());
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    assertThat(refused.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    JsonObject problem = json(refused);
    assertThat(problem.getString("code")).isEqualTo("conflict");
    assertThat(problem.getString("detail"))
        .contains("subscription first")
        .contains("etcd")
        .contains("shared");
    assertThat(problem.getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/placement");
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
    assertThat(api.get("/subscriptions/second").statusCode()).isEqualTo(404);

    // a cluster named by one and matched now by the other's selector overlaps too
    assertThat(
            api.putJson(
                    "/subscriptions/second",
                    sub("shared", new JsonObject().put("clusters", new JsonArray().add("prod-1"))),
                    Map.of())
                .statusCode())
        .isEqualTo(409);
    // the first may still change itself
    assertThat(
            api.putJson(
                    "/subscriptions/first", sub("shared", selector("env=prod,tier=gold")), Map.of())
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void placementsThatCannotMeetOrOtherNamespacesAreAccepted() {
    assertThat(
            api.putJson("/subscriptions/prod-only", sub("apart", selector("env=prod")), Map.of())
                .statusCode())
        .isEqualTo(201);
    assertThat(
            api.putJson("/subscriptions/dev-only", sub("apart", selector("env=dev")), Map.of())
                .statusCode())
        .isEqualTo(201);
    assertThat(
            api.putJson(
                    "/subscriptions/lab-named",
                    sub("apart", new JsonObject().put("clusters", new JsonArray().add("lab-1"))),
                    Map.of())
                .statusCode())
        .isEqualTo(201);
    assertThat(
            api.putJson(
                    "/subscriptions/prod-elsewhere", sub("apart-2", selector("env=prod")), Map.of())
                .statusCode())
        .isEqualTo(201);
    HttpResponse<String> lab =
        api.putJson(
            "/subscriptions/lab-again",
            sub("apart", new JsonObject().put("clusters", new JsonArray().add("lab-1"))),
            Map.of());
    assertThat(lab.statusCode()).isEqualTo(409);
    assertThat(json(lab).getString("detail")).contains("lab-named").contains("lab-1");
  }

  @Test
  void aTeamScopedCallerIsNotToldTheNameOfASubscriptionItCannotSee() {
    assertThat(
            api.putJson("/subscriptions/admins-etcd", sub("hidden", selector("")), Map.of())
                .statusCode())
        .isEqualTo(201);
    HttpResponse<String> token =
        api.send(
            "POST",
            "/tokens",
            new JsonObject()
                .put("name", "blue-op")
                .put("role", "operator")
                .put("teams", new JsonArray().add("blue"))
                .encode()
                .getBytes(StandardCharsets.UTF_8),
            "application/json",
            Map.of());
    assertThat(token.statusCode()).as(token.body()).isEqualTo(201);
    ApiClient blue = new ApiClient(cp.baseUrl(), json(token).getString("token"));
    HttpResponse<String> refused =
        blue.putJson(
            "/subscriptions/blue-etcd", sub("hidden", selector("")).put("team", "blue"), Map.of());
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    assertThat(json(refused).getString("detail"))
        .doesNotContain("admins-etcd")
        .contains("another team");
  }

  @Test
  void twoConcurrentOverlappingCreatesLeaveExactlyOne() {
    List<CompletableFuture<Integer>> puts =
        List.of("race-a", "race-b", "race-c").stream()
            .map(
                n ->
                    CompletableFuture.supplyAsync(
                        () ->
                            api.putJson("/subscriptions/" + n, sub("race", selector("")), Map.of())
                                .statusCode()))
            .toList();
    List<Integer> codes = puts.stream().map(CompletableFuture::join).toList();
    assertThat(codes).containsOnly(201, 409);
    assertThat(codes.stream().filter(c -> c == 201)).hasSize(1);
  }
}
