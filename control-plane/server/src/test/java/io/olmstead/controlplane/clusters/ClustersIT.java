package io.olmstead.controlplane.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.http.DbSnapshot;
import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ClustersIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(ClustersIT.class);
    api = new ApiClient(cp);
    insert("prod-eu-1", "{\"env\":\"prod\",\"region\":\"eu\"}", "connected");
    insert("prod-us-1", "{\"env\":\"prod\",\"region\":\"us\",\"canary\":\"true\"}", "connected");
    insert("prod-ap-1", "{\"env\":\"prod\",\"region\":\"ap\",\"tier\":\"db\"}", "disconnected");
    insert("dev-eu-1", "{\"env\":\"dev\",\"region\":\"eu\",\"tier\":\"web\"}", "pending");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  static void insert(String name, String labels, String status) {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status, kubernetes_version) VALUES ('"
            + name
            + "', '"
            + labels
            + "'::jsonb, '"
            + status
            + "', 'v1.30.2')");
  }

  private static List<String> names(Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    response.items().forEach(item -> names.add(((JsonObject) item).getString("name")));
    return names;
  }

  private static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Test
  void listsClustersInNameOrderWithTheirFields() {
    Response response = api.get("/api/v1/clusters?selector=" + q("region in (eu)"), ADMIN);
    assertThat(names(response)).containsExactly("dev-eu-1", "prod-eu-1");
    JsonObject first = response.items().getJsonObject(0);
    assertThat(first.getString("status")).isEqualTo("pending");
    assertThat(first.getString("kubernetesVersion")).isEqualTo("v1.30.2");
    assertThat(first.getLong("resourceVersion")).isEqualTo(1L);
    assertThat(response.json().getString("nextCursor")).isNull();
  }

  @Test
  void filtersByKubernetesLabelSelector() {
    assertThat(
            names(
                api.get(
                    "/api/v1/clusters?selector=" + q("env=prod,region in (eu,us),!canary"), ADMIN)))
        .containsExactly("prod-eu-1");
    assertThat(names(api.get("/api/v1/clusters?selector=" + q("env==prod,tier!=db"), ADMIN)))
        .containsExactly("prod-eu-1", "prod-us-1");
    assertThat(names(api.get("/api/v1/clusters?selector=" + q("tier"), ADMIN)))
        .containsExactly("dev-eu-1", "prod-ap-1");
    assertThat(names(api.get("/api/v1/clusters?selector=" + q("region notin (eu, ap)"), ADMIN)))
        .contains("prod-us-1")
        .doesNotContain("prod-eu-1", "prod-ap-1", "dev-eu-1");
  }

  @Test
  void filtersByStatus() {
    assertThat(names(api.get("/api/v1/clusters?status=connected", ADMIN)))
        .containsExactly("prod-eu-1", "prod-us-1");
  }

  @Test
  void pagesWithOpaqueCursors() {
    for (String name : List.of("page-d", "page-a", "page-c", "page-b")) {
      insert(name, "{\"page\":\"yes\"}", "pending");
    }
    Response first = api.get("/api/v1/clusters?limit=3&selector=page", ADMIN);
    assertThat(names(first)).containsExactly("page-a", "page-b", "page-c");
    String cursor = first.json().getString("nextCursor");
    assertThat(cursor).isNotNull();
    Response second = api.get("/api/v1/clusters?limit=3&selector=page&cursor=" + cursor, ADMIN);
    assertThat(names(second)).containsExactly("page-d");
    assertThat(second.json().getString("nextCursor")).isNull();
  }

  @Test
  void rejectsAnInvalidSelectorOrCursorWith400() {
    Response bad = api.get("/api/v1/clusters?selector=" + q("env in (prod"), ADMIN);
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.code()).isEqualTo("bad-request");
    assertThat(bad.json().getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("query.selector");
    assertThat(api.get("/api/v1/clusters?cursor=bm90LWEtY3Vyc29y", ADMIN).status()).isEqualTo(400);
    assertThat(api.get("/api/v1/clusters?status=asleep", ADMIN).status()).isEqualTo(400);
    assertThat(api.get("/api/v1/clusters?limit=0", ADMIN).status()).isEqualTo(400);
  }

  @Test
  void getsOneClusterWithItsEtag() {
    Response response = api.get("/api/v1/clusters/prod-ap-1", ADMIN);
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.json().getJsonObject("labels").getString("tier")).isEqualTo("db");
    assertThat(response.header("ETag"))
        .isEqualTo("\"" + response.json().getLong("resourceVersion") + "\"");
    Response missing = api.get("/api/v1/clusters/no-such-cluster", ADMIN);
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.code()).isEqualTo("not-found");
    assertThat(api.get("/api/v1/clusters/Not_A_Name", ADMIN).status()).isEqualTo(400);
  }

  @Test
  void mergePatchSetsAndRemovesLabelsBumpsTheVersionAndIsAudited() {
    insert("patch-me", "{\"env\":\"dev\",\"old\":\"x\"}", "pending");
    Response patched =
        api.send(
            "PATCH",
            "/api/v1/clusters/patch-me",
            ADMIN,
            "application/merge-patch+json",
            "{\"labels\":{\"env\":\"prod\",\"old\":null,\"new\":\"y\"}}"
                .getBytes(StandardCharsets.UTF_8),
            Map.of("If-Match", "\"1\""));
    assertThat(patched.status()).as(patched.body()).isEqualTo(200);
    assertThat(patched.json().getJsonObject("labels").getMap())
        .isEqualTo(Map.of("env", "prod", "new", "y"));
    assertThat(patched.json().getLong("resourceVersion")).isEqualTo(2L);
    assertThat(patched.header("ETag")).isEqualTo("\"2\"");
    Response audit = api.get("/api/v1/audit?limit=5", ADMIN);
    JsonObject entry = audit.items().getJsonObject(0);
    assertThat(entry.getString("action")).isEqualTo("cluster.patch");
    assertThat(entry.getString("resource")).isEqualTo("clusters/patch-me");
    assertThat(entry.getString("outcome")).isEqualTo("success");
    assertThat(entry.getString("actor")).isEqualTo("token:bootstrap-admin");
    assertThat(entry.getString("requestId")).isEqualTo(patched.header("X-Request-Id"));
  }

  @Test
  void staleIfMatchIs412AndChangesNothing() {
    insert("stale", "{\"env\":\"dev\"}", "pending");
    Map<String, String> before = DbSnapshot.of(cp.database());
    Response response =
        api.send(
            "PATCH",
            "/api/v1/clusters/stale",
            ADMIN,
            "application/merge-patch+json",
            "{\"labels\":{\"env\":\"prod\"}}".getBytes(StandardCharsets.UTF_8),
            Map.of("If-Match", "\"7\""));
    assertThat(response.status()).isEqualTo(412);
    assertThat(response.code()).isEqualTo("precondition-failed");
    Map<String, String> after = DbSnapshot.of(cp.database());
    assertThat(after.get("clusters")).isEqualTo(before.get("clusters"));
    Response delete =
        api.send(
            "DELETE", "/api/v1/clusters/stale", ADMIN, null, null, Map.of("If-Match", "\"9\""));
    assertThat(delete.status()).isEqualTo(412);
    assertThat(api.get("/api/v1/clusters/stale", ADMIN).status()).isEqualTo(200);
  }

  @Test
  void patchNeedsTheMergePatchContentType() {
    Response response =
        api.json("PATCH", "/api/v1/clusters/prod-eu-1", ADMIN, "{\"labels\":{\"a\":\"b\"}}");
    assertThat(response.status()).isEqualTo(415);
    assertThat(response.code()).isEqualTo("unsupported-media-type");
  }

  @Test
  void deleteRemovesTheClusterAndIsAudited() {
    insert("delete-me", "{}", "pending");
    Response response =
        api.send(
            "DELETE", "/api/v1/clusters/delete-me", ADMIN, null, null, Map.of("If-Match", "\"1\""));
    assertThat(response.status()).isEqualTo(204);
    assertThat(api.get("/api/v1/clusters/delete-me", ADMIN).status()).isEqualTo(404);
    assertThat(api.delete("/api/v1/clusters/delete-me", ADMIN).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/audit?limit=50", ADMIN).body())
        .contains("cluster.delete", "clusters/delete-me");
  }

  @Test
  void selectorsInSqlAgreeWithTheInMemoryMatcher() {
    Random random = new Random(42);
    String[] envs = {"prod", "dev", "staging"};
    String[] regions = {"eu", "us", "ap"};
    Map<String, Map<String, String>> generated = new HashMap<>();
    for (int i = 0; i < 60; i++) {
      Map<String, String> labels = new HashMap<>();
      labels.put("gen", "yes");
      labels.put("env", envs[random.nextInt(envs.length)]);
      if (random.nextBoolean()) {
        labels.put("region", regions[random.nextInt(regions.length)]);
      }
      if (random.nextInt(4) == 0) {
        labels.put("canary", "true");
      }
      labels.put("size", String.valueOf(random.nextInt(20)));
      String name = "gen-" + i;
      generated.put(name, labels);
      insert(name, new JsonObject(new HashMap<>(labels)).encode(), "connected");
    }
    List<String> selectors =
        List.of(
            "gen,env=prod",
            "gen,region in (eu,us),!canary",
            "gen,region notin (eu)",
            "gen,env!=dev,canary",
            "gen,size>10",
            "gen,size<3,env in (staging)",
            "gen,!region",
            "gen,region");
    for (String text : selectors) {
      LabelSelector selector = LabelSelector.parse(text);
      List<String> expected =
          generated.entrySet().stream()
              .filter(e -> selector.matches(e.getValue()))
              .map(Map.Entry::getKey)
              .sorted()
              .toList();
      assertThat(names(api.get("/api/v1/clusters?limit=500&selector=" + q(text), ADMIN)))
          .as(text)
          .containsExactlyElementsOf(expected);
    }
  }
}
