package io.olmstead.controlplane.subscription;

import static io.olmstead.controlplane.catalog.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.catalog.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Install modes at the API: validated against the spec and the catalog (422), one operator group
 * per namespace (409).
 */
class InstallModesIT {
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(InstallModesIT.class);
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
    assertThat(api.putJson("/catalogs/community", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
    String catalog =
        String.join(
            "\n",
            pkg(
                "dns",
                "[{\"type\":\"AllNamespaces\",\"supported\":true},"
                    + "{\"type\":\"OwnNamespace\",\"supported\":false}]"),
            pkg(
                "kafka",
                "[{\"type\":\"AllNamespaces\",\"supported\":true},{\"type\":\"OwnNamespace\",\"supported\":true},"
                    + "{\"type\":\"SingleNamespace\",\"supported\":true},{\"type\":\"MultiNamespace\",\"supported\":true}]"),
            pkg("imageonly", null),
            twoBundles(),
            "");
    HttpResponse<String> uploaded =
        api.post(
            "/catalogs/community/revisions",
            catalog.getBytes(StandardCharsets.UTF_8),
            "application/x-ndjson");
    assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  /** A package with one bundle whose olm.csv.metadata lists {@code modes} (null: no metadata). */
  private static String pkg(String name, String modes) {
    String metadata =
        modes == null
            ? ""
            : ",{\"type\":\"olm.csv.metadata\",\"value\":{\"installModes\":" + modes + "}}";
    return "{\"schema\":\"olm.package\",\"name\":\""
        + name
        + "\",\"defaultChannel\":\"stable\"}\n"
        + "{\"schema\":\"olm.channel\",\"package\":\""
        + name
        + "\",\"name\":\"stable\",\"entries\":[{\"name\":\""
        + name
        + ".v1.0.0\"}]}\n"
        + "{\"schema\":\"olm.bundle\",\"package\":\""
        + name
        + "\",\"name\":\""
        + name
        + ".v1.0.0\",\"image\":"
        + "\"quay.io/example/"
        + name
        + ":1.0.0\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\""
        + name
        + "\",\"version\":\"1.0.0\"}}"
        + metadata
        + "]}";
  }

  /**
   * Package grafana: 1.0.0 supports OwnNamespace and AllNamespaces, the head 2.0.0 AllNamespaces
   * alone.
   */
  private static String twoBundles() {
    StringBuilder out =
        new StringBuilder(
            "{\"schema\":\"olm.package\",\"name\":\"grafana\",\"defaultChannel\":\"stable\"}\n"
                + "{\"schema\":\"olm.channel\",\"package\":\"grafana\",\"name\":\"stable\",\"entries\":["
                + "{\"name\":\"grafana.v1.0.0\"},{\"name\":\"grafana.v2.0.0\",\"replaces\":\"grafana.v1.0.0\"}]}");
    for (String version : new String[] {"1.0.0", "2.0.0"}) {
      String own = version.equals("1.0.0") ? "true" : "false";
      out.append("\n{\"schema\":\"olm.bundle\",\"package\":\"grafana\",\"name\":\"grafana.v")
          .append(version)
          .append("\",\"image\":\"quay.io/example/grafana:")
          .append(version)
          .append("\",\"properties\":[{\"type\":")
          .append("\"olm.package\",\"value\":{\"packageName\":\"grafana\",\"version\":\"")
          .append(version)
          .append(
              "\"}},{\"type\":\"olm.csv.metadata\",\"value\":{\"installModes\":[{\"type\":\"AllNamespaces\",")
          .append("\"supported\":true},{\"type\":\"OwnNamespace\",\"supported\":")
          .append(own)
          .append("}]}}]}");
    }
    return out.toString();
  }

  private static JsonObject sub(String pkg, String namespace, String selector) {
    return new JsonObject()
        .put("catalog", "community")
        .put("package", pkg)
        .put("namespace", namespace)
        .put("placement", new JsonObject().put("selector", selector))
        .put("version", new JsonObject().put("follow", "channel"))
        .put("approval", "Automatic");
  }

  private static HttpResponse<String> put(String name, JsonObject body) {
    return api.putJson("/subscriptions/" + name, body, Map.of());
  }

  private static void assertProblem(HttpResponse<String> response, int status, String field) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    assertThat(json(response).getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo(field);
  }

  @Test
  void modesAndTargetsThatDoNotFitAre422NamingTheField() {
    assertProblem(
        put("bad-mode", sub("kafka", "m1", "env=a").put("installMode", "Everywhere")),
        422,
        "/installMode");
    assertProblem(
        put("no-targets", sub("kafka", "m1", "env=a").put("installMode", "SingleNamespace")),
        422,
        "/targetNamespaces");
    assertProblem(
        put(
            "all-with-targets",
            sub("kafka", "m1", "env=a")
                .put("installMode", "AllNamespaces")
                .put("targetNamespaces", new JsonArray().add("x"))),
        422,
        "/targetNamespaces");
    assertThat(
            put(
                    "empty-target",
                    sub("kafka", "m1", "env=a").put("targetNamespaces", new JsonArray().add("")))
                .statusCode())
        .isEqualTo(422);
    assertThat(api.get("/subscriptions/no-targets").statusCode()).isEqualTo(404);
  }

  @Test
  void aModeTheCatalogSaysTheBundleLacksIs422AndTheBundleDecidesWhenNoneIsGiven() {
    HttpResponse<String> own =
        put("dns-own", sub("dns", "m2", "env=b").put("installMode", "OwnNamespace"));
    assertProblem(own, 422, "/installMode");
    assertThat(json(own).toString()).contains("dns.v1.0.0").contains("OwnNamespace");

    HttpResponse<String> chosen = put("dns-default", sub("dns", "m2", "env=b"));
    assertThat(chosen.statusCode()).as(chosen.body()).isEqualTo(201);
    assertThat(json(chosen).getValue("installMode")).isNull();
    // the catalog does not tell: the agent checks the bundle (UnsupportedOperatorGroup there)
    assertThat(
            put("image-own", sub("imageonly", "m3", "env=b").put("installMode", "OwnNamespace"))
                .statusCode())
        .isEqualTo(201);
  }

  @Test
  void subscriptionsInOneNamespaceWithOtherTargetsAndOverlappingPlacementsAre409NamingTheOther() {
    assertThat(
            put(
                    "kafka-teams",
                    sub("kafka", "shared", "env=prod")
                        .put("installMode", "MultiNamespace")
                        .put("targetNamespaces", new JsonArray().add("team-a").add("team-b")))
                .statusCode())
        .isEqualTo(201);

    HttpResponse<String> all = put("dns-all", sub("dns", "shared", "region=eu"));
    assertProblem(all, 409, "/installMode");
    assertThat(json(all).getString("detail"))
        .contains("kafka-teams")
        .contains("team-a,team-b")
        .contains("all namespaces");
    assertThat(api.get("/subscriptions/dns-all").statusCode()).isEqualTo(404);

    assertThat(put("dns-apart", sub("dns", "shared", "env=dev")).statusCode()).isEqualTo(201);
    assertThat(
            put(
                    "kafka-same",
                    sub("imageonly", "shared", "env=prod")
                        .put("installMode", "MultiNamespace")
                        .put("targetNamespaces", new JsonArray().add("team-b").add("team-a")))
                .statusCode())
        .isEqualTo(201);
  }

  @Test
  void theModeIsCheckedAgainstTheBundleTheVersionPolicyInstallsNotTheChannelHead() {
    JsonObject pinnedOld =
        sub("grafana", "g1", "env=g")
            .put("version", new JsonObject().put("pin", "1.0.0"))
            .put("installMode", "OwnNamespace");
    HttpResponse<String> accepted = put("grafana-old", pinnedOld);
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(201);

    HttpResponse<String> following =
        put("grafana-head", sub("grafana", "g2", "env=g").put("installMode", "OwnNamespace"));
    assertProblem(following, 422, "/installMode");
    assertThat(json(following).toString()).contains("grafana.v2.0.0");

    HttpResponse<String> inRange =
        put(
            "grafana-range",
            sub("grafana", "g3", "env=g")
                .put("version", new JsonObject().put("range", ">=1.0.0 <2.0.0"))
                .put("installMode", "OwnNamespace"));
    assertThat(inRange.statusCode()).as(inRange.body()).isEqualTo(201);

    HttpResponse<String> pinnedNew =
        put(
            "grafana-new",
            sub("grafana", "g4", "env=g")
                .put("version", new JsonObject().put("pin", "2.0.0"))
                .put("installMode", "OwnNamespace"));
    assertProblem(pinnedNew, 422, "/installMode");
  }
}
