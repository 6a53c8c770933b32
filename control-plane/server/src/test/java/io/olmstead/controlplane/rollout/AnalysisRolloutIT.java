package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.analysis.LoopbackPrometheus;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.PrometheusSettings;
import io.olmstead.controlplane.server.ControlPlane;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Analysis gates end to end: Debian's real Prometheus on loopback scraping an exporter the test
 * controls, the whole control plane, hollow agents on the real channel client. A canary whose
 * metric goes bad pauses the rollout before the next wave; once the metric is good again, resuming
 * measures again and the rollout completes.
 */
class AnalysisRolloutIT {
  private static final String CHECK =
      "{\"name\":\"errors\",\"query\":\"max(canary_errors{cluster=\\\"$cluster\\\"})\","
          + "\"successIf\":\"< 1\",\"intervalSeconds\":1,\"count\":2}";
  private static DatabaseSettings db;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static LoopbackPrometheus prometheus;
  private static ControlPlane cp;
  private static int port;

  @BeforeAll
  static void setUp() throws Exception {
    Assumptions.assumeTrue(
        LoopbackPrometheus.available(),
        "no /usr/bin/prometheus: the analysis gate needs Debian's "
            + "prometheus server (apt-get install -y prometheus)");
    db = TestDatabase.create(AnalysisRolloutIT.class);
    vertx = Vertx.vertx();
    prometheus = LoopbackPrometheus.start(vertx);
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(
                Map.of(
                    PrometheusSettings.URL,
                    prometheus.url().toString(),
                    PrometheusSettings.TIMEOUT,
                    "5"),
                "127.0.0.1")
            .withPort(0)
            .withDatabase(db)
            .withAdminToken(TestControlPlane.ADMIN_TOKEN);
    cp =
        ControlPlane.start(config)
            .toCompletionStage()
            .toCompletableFuture()
            .get(2, TimeUnit.MINUTES);
    port = cp.port();
    fx = new RolloutFixtures(db);
    fx.catalog();
    // a webhook, so that analysis transitions become webhook events (its receiver is never reached:
    // not asserted)
    fx.update(
        "INSERT INTO webhooks (name, url, events, secret, created_by) VALUES ('gate', 'http://127.0.0.1:9/x', "
            + "'{io.olmstead.rollout.analysis.*}', 'abcdefghijklmnopqrstuvwxyz012345', 'test')");
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (cp != null) {
      cp.close();
    }
    if (prometheus != null) {
      prometheus.close();
    }
    if (vertx != null) {
      vertx.close();
    }
  }

  private static HttpResponse<String> call(String method, String path, String body)
      throws Exception {
    return RolloutIT.call(port, method, path, body);
  }

  private static JsonObject rollout(String id) throws Exception {
    return new JsonObject(call("GET", "/rollouts/" + id, null).body());
  }

  private static long approved(String id) {
    return fx.count(
        "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND approved_version = '0.9.4'",
        id);
  }

  @Test
  void aCanaryWhoseMetricGoesBadPausesTheRolloutBeforeTheNextWave() throws Exception {
    fx.subscription("etcd", "fleet=sim", "0.9.2");
    // The canary's errors are up (as on the new version): checks measure only a wave's clusters at
    // the target, so
    // they first see the value once the canary runs 0.9.4. Prometheus holds every value before the
    // rollout starts,
    // so no measurement can meet an unscraped series (no data: inconclusive) or an older value.
    prometheus.set("sim-0001", 5);
    prometheus.set("sim-0002", 0);
    prometheus.set("sim-0003", 0);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                prometheus.sees("sim-0001", 5)
                    && prometheus.sees("sim-0002", 0)
                    && prometheus.sees("sim-0003", 0));
    String token = fx.enrollmentToken(3, "{\"fleet\":\"sim\"}");
    HollowFleet agents =
        HollowFleet.start(
            vertx,
            new HollowFleet.Settings(
                3,
                URI.create("http://127.0.0.1:" + port),
                token,
                "sim-",
                Duration.ofMillis(300),
                0.0,
                Map.of(),
                null,
                0));
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status WHERE "
                              + "subscription = 'etcd' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                      == 3);
      // the check comes from a fleet-wide template, copied into the rollout when it is created
      JsonObject template = new JsonObject(CHECK);
      template.remove("name");
      fx.update(
          "INSERT INTO analysis_templates (team, name, spec, created_by) VALUES ('', 'canary-errors', "
              + "?::jsonb, 'test')",
          template.encode());
      HttpResponse<String> created =
          call(
              "POST",
              "/rollouts",
              "{\"subscription\":\"etcd\",\"targetVersion\":"
                  + "\"0.9.4\",\"strategy\":{\"canary\":{\"count\":1},\"soakSeconds\":1,\"analysis\":[{\"name\":"
                  + "\"errors\",\"templateName\":\"canary-errors\"}]}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      String id = new JsonObject(created.body()).getString("id");
      JsonObject check =
          new JsonObject(created.body())
              .getJsonObject("strategy")
              .getJsonArray("analysis")
              .getJsonObject(0);
      assertThat(check.getString("templateName")).isEqualTo("canary-errors");
      assertThat(check.getString("query")).isEqualTo("max(canary_errors{cluster=\"$cluster\"})");
      assertThat(check.getInteger("count")).isEqualTo(2);

      await().atMost(Duration.ofSeconds(30)).until(() -> approved(id) == 1);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> "Paused".equals(rollout(id).getString("state")));
      JsonObject paused = rollout(id);
      assertThat(approved(id)).as("the next wave never opened").isEqualTo(1);
      assertThat(paused.getJsonArray("waves").getJsonObject(1).getString("state"))
          .isEqualTo("Pending");
      JsonObject failed = history(paused, "AnalysisFailed");
      assertThat(failed.getString("cluster")).isEqualTo("sim-0001");
      assertThat(failed.getString("message"))
          .contains("max(canary_errors{cluster=\"sim-0001\"})")
          .contains("= 5.0")
          .contains("successIf < 1");
      assertThat(paused.getString("message"))
          .contains("analysis errors failed on cluster sim-0001");
      assertThat(
              fx.count(
                  "SELECT (SELECT count(*) FROM webhook_events WHERE type = "
                      + "'io.olmstead.rollout.analysis.failed') + (SELECT count(*) FROM webhook_deliveries WHERE type = "
                      + "'io.olmstead.rollout.analysis.failed')"))
          .as("a webhook event")
          .isPositive();

      // fixed: resuming measures again from the start; every wave passes
      prometheus.set("sim-0001", 0);
      await().atMost(Duration.ofSeconds(30)).until(() -> prometheus.sees("sim-0001", 0));
      // the canary's failed check is remembered as a risky edge: the clusters with its facts would
      // be held
      // (EdgeAtRisk) after the resume, so the person who fixed the cause accepts the risk first
      JsonArray risks =
          new JsonObject(call("GET", "/edge-risks", null).body()).getJsonArray("items");
      assertThat(risks).as("the edge the canary failed on").hasSize(1);
      assertThat(risks.getJsonObject(0).getString("fromVersion")).isEqualTo("0.9.2");
      HttpResponse<String> accepted =
          call(
              "POST",
              "/edge-risks/" + risks.getJsonObject(0).getString("id") + "/accept",
              "{\"comment\":\"errors fixed\"}");
      assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
      HttpResponse<String> resumed = call("POST", "/rollouts/" + id + "/resume", null);
      assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> "Succeeded".equals(rollout(id).getString("state")));
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_analysis WHERE rollout_id = ? AND status = 'Passed'",
                  id))
          .as("each cluster passed in its wave")
          .isEqualTo(3);

      // groupOrder: a listed value no placed cluster carries is named
      HttpResponse<String> order =
          call(
              "POST",
              "/rollouts/preview",
              "{\"subscription\":\"etcd\",\"targetVersion\":"
                  + "\"0.9.4\",\"strategy\":{\"groupBy\":\"fleet\",\"groupOrder\":[\"sim\",\"mars\"]}}");
      assertThat(order.statusCode()).as(order.body()).isEqualTo(422);
      assertThat(fields(order)).containsExactly("/strategy/groupOrder/1");
      assertThat(order.body()).contains("fleet=mars");
    } finally {
      agents.close();
    }
  }

  @Test
  void aQueryPrometheusCannotParseOrOneTooLongIsA422NamingTheField() throws Exception {
    fx.subscription("etcd-bad", "fleet=none", "0.9.2");
    HttpResponse<String> unparsable =
        call(
            "POST",
            "/rollouts",
            "{\"subscription\":\"etcd-bad\",\"targetVersion\":"
                + "\"0.9.4\",\"strategy\":{\"analysis\":["
                + CHECK
                + ",{\"name\":\"broken\",\"query\":\"sum(rate(x[5m])\","
                + "\"successIf\":\"< 1\"}]}}");
    assertThat(unparsable.statusCode()).as(unparsable.body()).isEqualTo(422);
    assertThat(fields(unparsable)).containsExactly("/strategy/analysis/1/query");
    HttpResponse<String> tooLong =
        call(
            "POST",
            "/rollouts",
            "{\"subscription\":\"etcd-bad\",\"targetVersion\":"
                + "\"0.9.4\",\"strategy\":{\"analysis\":[{\"name\":\"long\",\"query\":\""
                + "x".repeat(4097)
                + "\","
                + "\"successIf\":\"< 1\"}]}}");
    assertThat(tooLong.statusCode()).as(tooLong.body()).isEqualTo(422);
    assertThat(fields(tooLong)).containsExactly("/strategy/analysis/0/query");
    HttpResponse<String> noTemplate =
        call(
            "POST",
            "/rollouts",
            "{\"subscription\":\"etcd-bad\",\"targetVersion\":"
                + "\"0.9.4\",\"strategy\":{\"analysis\":[{\"name\":\"t\",\"templateName\":\"nowhere\"}]}}");
    assertThat(noTemplate.statusCode()).as(noTemplate.body()).isEqualTo(422);
    assertThat(fields(noTemplate)).containsExactly("/strategy/analysis/0/templateName");
    assertThat(fx.count("SELECT count(*) FROM rollouts WHERE subscription = 'etcd-bad'")).isZero();
  }

  @Test
  void aDeclaredRolloutStrategyWhoseQueryPrometheusCannotParseIsA422WhenPutAndNothingIsStored()
      throws Exception {
    // parsed before the PUT's transaction, on every PUT carrying the strategy (not only at a later
    // version change)
    HttpResponse<String> refused =
        call(
            "PUT",
            "/subscriptions/declared-bad",
            "{\"catalog\":\"demo\",\"package\":"
                + "\"etcd\",\"channel\":\"alpha\",\"namespace\":\"declared-bad\",\"placement\":{\"selector\":"
                + "\"fleet=declared-bad\"},\"version\":{\"pin\":\"0.9.2\"},\"approval\":\"Automatic\",\"rolloutStrategy\":"
                + "{\"analysis\":[{\"name\":\"bad\",\"query\":\"sum(rate(x[5m])\",\"successIf\":\"< 1\"}]}}");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
    assertThat(fields(refused)).containsExactly("/rolloutStrategy/analysis/0/query");
    assertThat(fx.count("SELECT count(*) FROM subscriptions WHERE name = 'declared-bad'")).isZero();
  }

  @Test
  void aTemplateWhoseQueryPrometheusCannotParseIsA422WithPrometheussMessageAndNothingIsStored()
      throws Exception {
    HttpResponse<String> refused =
        call(
            "PUT",
            "/analysis-templates/broken",
            "{\"query\":\"sum(rate(x[5m])\"," + "\"successIf\":\"< 1\"}");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
    assertThat(fields(refused)).containsExactly("/query");
    String message =
        new JsonObject(refused.body()).getJsonArray("errors").getJsonObject(0).getString("message");
    assertThat(message).startsWith("Prometheus cannot parse the query: ").contains("parse error");
    assertThat(message.length()).as("Prometheus's text is bounded").isLessThanOrEqualTo(600);
    assertThat(fx.count("SELECT count(*) FROM analysis_templates WHERE name = 'broken'")).isZero();

    HttpResponse<String> parsed =
        call(
            "PUT",
            "/analysis-templates/parsed",
            "{\"query\":"
                + "\"max(canary_errors{cluster=\\\"$cluster\\\"})\",\"successIf\":\"< 1\"}");
    assertThat(parsed.statusCode()).as(parsed.body()).isEqualTo(201);
    assertThat(new JsonObject(parsed.body()).containsKey("warnings"))
        .as("checked by Prometheus")
        .isFalse();
  }

  private static JsonObject history(JsonObject rollout, String kind) {
    JsonArray h = rollout.getJsonArray("history");
    for (int i = 0; i < h.size(); i++) {
      if (kind.equals(h.getJsonObject(i).getString("kind"))) {
        return h.getJsonObject(i);
      }
    }
    throw new AssertionError("no " + kind + " in " + h.encodePrettily());
  }

  private static java.util.List<String> fields(HttpResponse<String> response) {
    JsonArray errors = new JsonObject(response.body()).getJsonArray("errors", new JsonArray());
    return errors.stream().map(e -> ((JsonObject) e).getString("field")).toList();
  }
}
