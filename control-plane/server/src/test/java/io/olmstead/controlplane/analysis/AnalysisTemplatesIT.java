package io.olmstead.controlplane.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.PrometheusSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.rollout.RolloutFixtures;
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
 * {@code /analysis-templates} on real PostgreSQL, with a Prometheus URL nothing listens on (a
 * Prometheus that is down): CRUD under If-Match with audit rows, team isolation, 422s naming
 * fields, and resolution into a rollout.
 */
class AnalysisTemplatesIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures fx;

  @BeforeAll
  static void start() {
    var db = TestDatabase.create(AnalysisTemplatesIT.class);
    cp =
        TestControlPlane.start(
            db,
            Map.of(
                PrometheusSettings.URL,
                "http://127.0.0.1:" + TestControlPlane.freePort(),
                PrometheusSettings.TIMEOUT,
                "2"));
    api = new ApiClient(cp);
    fx = new RolloutFixtures(db);
    fx.catalog();
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static JsonObject template(String query) {
    return new JsonObject()
        .put("query", query)
        .put("successIf", "< 0.01")
        .put("intervalSeconds", 30)
        .put("count", 2);
  }

  private static Response put(String path, JsonObject body, String token, String ifMatch) {
    return api.send(
        "PUT",
        "/api/v1" + path,
        token,
        "application/json",
        body.encode().getBytes(StandardCharsets.UTF_8),
        ifMatch == null ? Map.of() : Map.of("If-Match", ifMatch));
  }

  private static List<String> fields(Response r) {
    return r.json().getJsonArray("errors", new JsonArray()).stream()
        .map(e -> ((JsonObject) e).getString("field"))
        .toList();
  }

  @Test
  void aTemplateIsCreatedReadReplacedUnderIfMatchListedAndDeletedEachChangeAudited() {
    Response created =
        put(
            "/analysis-templates/error-rate",
            template("sum(rate(errors{cluster=\"$cluster\"}[5m]))"),
            ADMIN,
            null);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.header("ETag")).isEqualTo("\"1\"");
    assertThat(created.json().getValue("team")).isNull();
    assertThat(created.json().getJsonArray("warnings").getString(0))
        .as("Prometheus is down: stored, not checked")
        .contains("without being checked")
        .contains("Prometheus did not answer");

    assertThat(put("/analysis-templates/error-rate", template("up"), ADMIN, "\"7\"").status())
        .isEqualTo(412);
    Response replaced =
        put("/analysis-templates/error-rate", template("up").put("count", 5), ADMIN, "\"1\"");
    assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
    assertThat(replaced.header("ETag")).isEqualTo("\"2\"");

    Response read = api.get("/api/v1/analysis-templates/error-rate", ADMIN);
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.json().getString("query")).isEqualTo("up");
    assertThat(read.json().getInteger("count")).isEqualTo(5);
    assertThat(read.json().getString("successIf")).isEqualTo("< 0.01");
    assertThat(read.json().containsKey("warnings"))
        .as("a warning belongs to the PUT's answer only")
        .isFalse();
    assertThat(api.get("/api/v1/analysis-templates", ADMIN).items())
        .extracting(o -> ((JsonObject) o).getString("name"))
        .contains("error-rate");

    assertThat(
            api.send(
                    "DELETE",
                    "/api/v1/analysis-templates/error-rate",
                    ADMIN,
                    null,
                    null,
                    Map.of("If-Match", "\"1\""))
                .status())
        .isEqualTo(412);
    assertThat(api.delete("/api/v1/analysis-templates/error-rate", ADMIN).status()).isEqualTo(204);
    assertThat(api.get("/api/v1/analysis-templates/error-rate", ADMIN).status()).isEqualTo(404);
    assertThat(
            fx.count(
                "SELECT count(*) FROM audit_log WHERE resource = 'analysis-templates/error-rate' AND action "
                    + "IN ('analysis-template.put', 'analysis-template.delete') AND outcome = 'success'"))
        .isEqualTo(3);
    assertThat(
            fx.count(
                "SELECT count(*) FROM audit_log WHERE resource = 'analysis-templates/error-rate' AND outcome "
                    + "<> 'success'"))
        .as("the two stale If-Match refusals")
        .isEqualTo(2);
  }

  @Test
  void anotherTeamsTemplateIsNotFoundNotListedNotReferencedAndATeamTokenCannotWriteOne() {
    assertThat(put("/analysis-templates/red-errors?team=red", template("up"), ADMIN, null).status())
        .isEqualTo(201);
    assertThat(put("/analysis-templates/shared-errors", template("up"), ADMIN, null).status())
        .isEqualTo(201);
    String blue = api.createToken(ADMIN, "blue-admin", "admin", List.of("blue"));
    String red = api.createToken(ADMIN, "red-viewer", "viewer", List.of("red"));

    assertThat(api.get("/api/v1/analysis-templates/red-errors?team=red", red).status())
        .isEqualTo(200);
    assertThat(api.get("/api/v1/analysis-templates/red-errors?team=red", blue).status())
        .isEqualTo(404);
    assertThat(api.get("/api/v1/analysis-templates/shared-errors", blue).status())
        .as("fleet-wide: everyone's")
        .isEqualTo(200);
    List<String> listed =
        api.get("/api/v1/analysis-templates", blue).items().stream()
            .map(o -> ((JsonObject) o).getString("name"))
            .toList();
    assertThat(listed).contains("shared-errors").doesNotContain("red-errors");

    Response written = put("/analysis-templates/blue-errors?team=blue", template("up"), blue, null);
    assertThat(written.status())
        .as("a team-scoped token writes no query: " + written.body())
        .isEqualTo(403);
    assertThat(
            api.send(
                    "DELETE",
                    "/api/v1/analysis-templates/red-errors?team=red",
                    blue,
                    null,
                    null,
                    Map.of())
                .status())
        .isEqualTo(403);

    fx.subscription("blue-etcd", "fleet=blue", "0.9.2");
    fx.update("UPDATE subscriptions SET team = 'blue' WHERE name = 'blue-etcd'");
    Response refused =
        api.json(
            "POST",
            "/api/v1/rollouts",
            blue,
            new JsonObject()
                .put("subscription", "blue-etcd")
                .put("targetVersion", "0.9.4")
                .put(
                    "strategy",
                    new JsonObject()
                        .put(
                            "analysis",
                            new JsonArray()
                                .add(
                                    new JsonObject()
                                        .put("name", "errors")
                                        .put("templateName", "red-errors")))));
    assertThat(refused.status()).as(refused.body()).isEqualTo(422);
    assertThat(fields(refused)).containsExactly("/strategy/analysis/0/templateName");
    assertThat(fx.count("SELECT count(*) FROM rollouts WHERE subscription = 'blue-etcd'")).isZero();
  }

  @Test
  void badTemplatesAre422sNamingTheFieldAndNothingIsStored() {
    Map<String, JsonObject> bad =
        Map.of(
            "/templateName", template("up").put("templateName", "other"),
            "/query", template("x".repeat(10_000)),
            "/successIf", template("up").put("successIf", "about 3"),
            "/count", template("up").put("count", 0));
    bad.forEach(
        (field, body) -> {
          Response r = put("/analysis-templates/bad", body, ADMIN, null);
          assertThat(r.status()).as(field + ": " + r.body()).isEqualTo(422);
          assertThat(fields(r)).as(r.body()).contains(field);
        });
    assertThat(put("/analysis-templates/bad", template("x".repeat(10_000)), ADMIN, null).body())
        .contains("more than the 4096 allowed");
    assertThat(fx.count("SELECT count(*) FROM analysis_templates WHERE name = 'bad'")).isZero();
  }

  @Test
  void aRolloutCopiesItsTemplateWithItsOverridesAndKeepsTheCopyWhenTheTemplateIsDeleted() {
    assertThat(
            put("/analysis-templates/latency", template("histogram_quantile(0.99, x)"), ADMIN, null)
                .status())
        .isEqualTo(201);
    fx.subscription("tpl-etcd", "fleet=tpl", "0.9.2");
    fx.update("INSERT INTO clusters (name, labels) VALUES ('tpl-1', '{\"fleet\":\"tpl\"}')");
    JsonObject strategy =
        new JsonObject()
            .put(
                "analysis",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("name", "p99")
                            .put("templateName", "latency")
                            .put("successIf", "< 0.5")
                            .put("failureLimit", 1)));

    Response withQuery =
        api.json(
            "POST",
            "/api/v1/rollouts",
            ADMIN,
            new JsonObject()
                .put("subscription", "tpl-etcd")
                .put("targetVersion", "0.9.4")
                .put(
                    "strategy",
                    strategy
                        .copy()
                        .put(
                            "analysis",
                            new JsonArray()
                                .add(
                                    strategy
                                        .getJsonArray("analysis")
                                        .getJsonObject(0)
                                        .copy()
                                        .put("query", "up")))));
    assertThat(withQuery.status()).as(withQuery.body()).isEqualTo(422);
    assertThat(fields(withQuery)).containsExactly("/strategy/analysis/0/query");

    Response created =
        api.json(
            "POST",
            "/api/v1/rollouts",
            ADMIN,
            new JsonObject()
                .put("subscription", "tpl-etcd")
                .put("targetVersion", "0.9.4")
                .put("strategy", strategy));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String id = created.json().getString("id");
    assertThat(api.delete("/api/v1/analysis-templates/latency", ADMIN).status()).isEqualTo(204);

    JsonObject check =
        api.get("/api/v1/rollouts/" + id, ADMIN)
            .json()
            .getJsonObject("strategy")
            .getJsonArray("analysis")
            .getJsonObject(0);
    assertThat(check.getString("templateName")).isEqualTo("latency");
    assertThat(check.getString("query"))
        .as("copied, kept after the deletion")
        .isEqualTo("histogram_quantile(0.99, x)");
    assertThat(check.getString("successIf")).as("overridden").isEqualTo("< 0.5");
    assertThat(check.getInteger("failureLimit")).as("overridden").isEqualTo(1);
    assertThat(check.getInteger("count")).as("the template's").isEqualTo(2);
    assertThat(check.getInteger("intervalSeconds")).as("the template's").isEqualTo(30);
  }
}
