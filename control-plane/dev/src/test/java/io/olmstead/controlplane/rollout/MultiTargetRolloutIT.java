package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A rollout of two subscriptions on hollow clusters (real channel clients): the demo catalog's
 * operator 0.3.0 requires the package olmstead-demo-db, so the db moves first on each cluster and
 * the operator follows it there. mt-bad-0001 fails every install: the db fails there (one failed
 * cluster, within the budget), the operator is held there naming the db, and the two good clusters
 * complete both. After the end the operator stays uninstalled there (it ran nothing of it) until a
 * retry of the whole group, which holds it again when the db fails again.
 */
class MultiTargetRolloutIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures db;
  private static HollowFleet good;
  private static HollowFleet bad;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TestDatabase.create(MultiTargetRolloutIT.class), Map.of());
    api = new ApiClient(cp);
    db = new RolloutFixtures(cp.database());
    assertThat(
            api.json("PUT", "/api/v1/catalogs/" + DemoCatalog.NAME, ADMIN, new JsonObject())
                .status())
        .isEqualTo(201);
    ApiClient.Response uploaded =
        api.send(
            "POST",
            "/api/v1/catalogs/" + DemoCatalog.NAME + "/revisions",
            ADMIN,
            "application/yaml",
            DemoCatalog.content(),
            Map.of());
    assertThat(uploaded.status()).as(uploaded.body()).isEqualTo(201);
    for (String[] s :
        List.of(
            new String[] {"db", "olmstead-demo-db", "1.0.0"},
            new String[] {"app", "olmstead-demo-operator", "0.2.0"})) {
      ApiClient.Response put =
          api.json(
              "PUT",
              "/api/v1/subscriptions/" + s[0],
              ADMIN,
              new JsonObject()
                  .put("catalog", DemoCatalog.NAME)
                  .put("package", s[1])
                  .put("channel", "stable")
                  .put("namespace", s[0])
                  .put("placement", new JsonObject().put("selector", "fleet=multi"))
                  .put("version", new JsonObject().put("pin", s[2]))
                  .put("approval", "Automatic"));
      assertThat(put.status()).as(put.body()).isBetween(200, 201);
    }
    good = fleet("mt-good-", 2, 0.0);
    bad = fleet("mt-bad-", 1, 1.0);
  }

  private static HollowFleet fleet(String prefix, int count, double failureRate) {
    String token = db.enrollmentToken(count, "{\"fleet\":\"multi\"}");
    return HollowFleet.start(
        cp.controlPlane().vertx(),
        new HollowFleet.Settings(
            count,
            URI.create(cp.baseUrl()),
            token,
            prefix,
            Duration.ofMillis(300),
            failureRate,
            Map.of(),
            null,
            0));
  }

  @AfterAll
  static void stop() {
    for (HollowFleet f : new HollowFleet[] {good, bad}) {
      if (f != null) {
        f.close();
      }
    }
    if (cp != null) {
      cp.close();
    }
  }

  @Test
  void eachClusterTakesTheProviderFirstAndAProviderFailureHoldsItsConsumerThere() {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                installed("db", "1.0.0") == 2
                    && installed("app", "0.2.0") == 2
                    && db.count(
                            "SELECT count(*) FROM subscription_status WHERE cluster = 'mt-bad-0001' AND phase = 'Failed'")
                        == 2);

    // listed consumer first: the answer puts the db (the provider) first and is its rollout
    ApiClient.Response created =
        api.json(
            "POST",
            "/api/v1/rollouts",
            ADMIN,
            new JsonObject()
                .put(
                    "targets",
                    new JsonArray().add(target("app", "0.3.0")).add(target("db", "1.1.0")))
                .put(
                    "strategy",
                    new JsonObject()
                        .put("batchSize", 3)
                        .put("maxFailures", 1)
                        .put("soakSeconds", 0)
                        .put("progressDeadlineSeconds", 60)
                        .put("preflight", "Off")));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonObject rollout = created.json();
    String id = rollout.getString("id");
    assertThat(rollout.getString("group")).isEqualTo(id);
    assertThat(rollout.getString("subscription")).isEqualTo("db");
    JsonArray targets = rollout.getJsonArray("targets");
    assertThat(targets.stream().map(t -> ((JsonObject) t).getString("subscription")).toList())
        .containsExactly("db", "app");
    String appId = targets.getJsonObject(1).getString("rollout");

    await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> !state(id).equals("Progressing") && !state(appId).equals("Progressing"));
    assertThat(state(id)).isEqualTo("SucceededWithExceptions");
    assertThat(state(appId)).isEqualTo("SucceededWithExceptions");

    // on each good cluster the operator was approved only after the db succeeded there
    for (String cluster : List.of("mt-good-0001", "mt-good-0002")) {
      long dbSucceeded =
          db.count(
              "SELECT max(id) FROM rollout_history WHERE rollout_id = ? AND cluster = ? "
                  + "AND kind = 'ClusterSucceeded'",
              id,
              cluster);
      long appApproved =
          db.count(
              "SELECT min(id) FROM rollout_history WHERE rollout_id = ? AND cluster = ? "
                  + "AND kind = 'ClusterApproved'",
              appId,
              cluster);
      assertThat(appApproved).as(cluster).isGreaterThan(dbSucceeded);
    }
    assertThat(installed("db", "1.1.0")).isEqualTo(2);
    assertThat(installed("app", "0.3.0")).isEqualTo(2);

    // on the bad cluster the db failed (counted once, by the db's target) and the operator was held
    // naming it
    Map<String, JsonObject> dbClusters = clusters(id);
    assertThat(dbClusters.get("mt-bad-0001").getString("state")).isEqualTo("Failed");
    Map<String, JsonObject> appClusters = clusters(appId);
    JsonObject held = appClusters.get("mt-bad-0001");
    assertThat(held.getString("state")).isEqualTo("Blocked");
    assertThat(held.getString("approvedVersion")).isNull();
    assertThat(held.getJsonObject("reason").getString("code")).isEqualTo("ProviderFailed");
    assertThat(held.getJsonObject("reason").getString("subject")).isEqualTo("db");
    assertThat(held.getJsonObject("reason").getString("message"))
        .startsWith("ProviderFailed (db did not reach 1.1.0 " + "on this cluster (Failed");
    assertThat(
            held.getJsonArray("targets").stream()
                .map(t -> ((JsonObject) t).getString("state"))
                .toList())
        .containsExactly("Failed", "Blocked");
    assertThat(
            db.count(
                "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND cluster = 'mt-bad-0001' "
                    + "AND kind = 'ClusterApproved'",
                appId))
        .isZero();
    JsonObject done = api.get("/api/v1/rollouts/" + appId, ADMIN).json();
    assertThat(done.getString("group")).isEqualTo(id);
    assertThat(
            done.getJsonArray("targets")
                .getJsonObject(0)
                .getJsonObject("counts")
                .getInteger("failed"))
        .isEqualTo(1);
    assertThat(
            done.getJsonArray("targets")
                .getJsonObject(1)
                .getJsonObject("counts")
                .getInteger("failed"))
        .isZero();
    assertThat(
            done.getJsonArray("targets")
                .getJsonObject(1)
                .getJsonObject("counts")
                .getInteger("blocked"))
        .isEqualTo(1);

    // after the end the operator stays uninstalled on the bad cluster (it ran nothing of it): its
    // desired state has
    // no version and the hold's reason, which the cluster reports, instead of the moved pin 0.3.0
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                db.count(
                        "SELECT count(*) FROM subscription_status "
                            + "WHERE subscription = 'app' AND cluster = 'mt-bad-0001' AND phase = 'Pending' AND target_version IS NULL "
                            + "AND installed_version IS NULL AND message LIKE 'held by rollout "
                            + appId
                            + ": ProviderFailed: db %'")
                    == 1);
    assertThat(
            db.count(
                "SELECT count(*) FROM rollout_approvals WHERE subscription = 'app' AND cluster = "
                    + "'mt-bad-0001' AND version IS NULL AND withheld IS NOT NULL"))
        .isEqualTo(1);
    assertThat(
            db.count(
                "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'ClusterWithheld' "
                    + "AND cluster = 'mt-bad-0001'",
                appId))
        .isEqualTo(1);
    assertThat(
            db.count(
                "SELECT count(*) FROM subscription_status WHERE subscription = 'app' "
                    + "AND cluster = 'mt-bad-0001' AND target_version = '0.3.0'"))
        .isZero();

    // a retry starts every target again as a new group, audited once; the db fails there again and
    // holds the operator
    ApiClient.Response retried =
        api.json("POST", "/api/v1/rollouts/" + appId + "/retry", ADMIN, new JsonObject());
    assertThat(retried.status()).as(retried.body()).isEqualTo(201);
    String again = retried.json().getString("id");
    assertThat(retried.json().getString("retryOf")).isEqualTo(appId);
    assertThat(retried.json().getString("group")).isEqualTo(again);
    JsonArray againTargets = retried.json().getJsonArray("targets");
    assertThat(againTargets.stream().map(t -> ((JsonObject) t).getString("subscription")).toList())
        .containsExactly("db", "app");
    assertThat(againTargets.stream().map(t -> ((JsonObject) t).getString("targetVersion")).toList())
        .containsExactly("1.1.0", "0.3.0");
    assertThat(
            db.count(
                "SELECT count(*) FROM audit_log WHERE action = 'rollout.retry' AND resource = ? "
                    + "AND outcome = 'success'",
                "rollouts/" + again))
        .isEqualTo(1);
    String appAgain = againTargets.getJsonObject(1).getString("rollout");
    await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> !state(again).equals("Progressing") && !state(appAgain).equals("Progressing"));
    assertThat(clusters(appAgain).get("mt-bad-0001").getJsonObject("reason").getString("code"))
        .isEqualTo("ProviderFailed");
    assertThat(clusters(appAgain).get("mt-good-0001").getString("state")).isEqualTo("Succeeded");
    assertThat(
            db.count(
                "SELECT count(*) FROM rollout_approvals WHERE subscription = 'app' AND cluster = "
                    + "'mt-bad-0001' AND version IS NULL AND rollout_id = ?",
                appAgain))
        .isEqualTo(1);
  }

  @Test
  void aPreviewOfSeveralTargetsPreviewsEachInDependencyOrderAndNamesABadTargetsField() {
    ApiClient.Response preview =
        api.json(
            "POST",
            "/api/v1/rollouts/preview",
            ADMIN,
            new JsonObject()
                .put(
                    "targets",
                    new JsonArray().add(target("app", "0.3.0")).add(target("db", "1.1.0")))
                .put(
                    "strategy",
                    new JsonObject()
                        .put("canary", new JsonObject().put("count", 1))
                        .put("preflight", "Off")));
    assertThat(preview.status()).as(preview.body()).isEqualTo(200);
    JsonArray each = preview.json().getJsonArray("targets");
    assertThat(each.stream().map(t -> ((JsonObject) t).getString("subscription")).toList())
        .containsExactly("db", "app");
    assertThat(each.stream().map(t -> ((JsonObject) t).getString("targetVersion")).toList())
        .containsExactly("1.1.0", "0.3.0");
    assertThat(each.stream().map(t -> ((JsonObject) t).getInteger("listedAt")).toList())
        .containsExactly(1, 0);
    assertThat(each.getJsonObject(0).getJsonArray("waves").getJsonObject(0).getString("name"))
        .isEqualTo("canary");
    assertThat(preview.json().getJsonObject("strategy").getJsonObject("canary").getInteger("count"))
        .isEqualTo(1);

    for (Object[] bad :
        new Object[][] {
          {
            new JsonArray().add(target("db", "1.1.0")).add(target("nope", "1.0.0")),
            "/targets/1/subscription"
          },
          {new JsonArray().add(target("db", "9.9.9")), "/targets/0/targetVersion"},
          {
            new JsonArray().add(target("db", "1.1.0")).add(target("db", "1.1.0")),
            "/targets/1/subscription"
          }
        }) {
      ApiClient.Response r =
          api.json(
              "POST", "/api/v1/rollouts/preview", ADMIN, new JsonObject().put("targets", bad[0]));
      assertThat(r.status()).as(r.body()).isEqualTo(422);
      assertThat(r.json().getJsonArray("errors").getJsonObject(0).getString("field"))
          .as(r.body())
          .isEqualTo(bad[1]);
    }
  }

  @Test
  void badTargetsAreRefusedNamingTheFieldAndNothingIsStored() {
    long rollouts = db.count("SELECT count(*) FROM rollouts");
    refused(
        new JsonArray().add(target("db", "1.1.0")).add(target("db", "1.1.0")),
        "/targets/1/subscription");
    refused(
        new JsonArray().add(target("db", "1.1.0")).add(target("nope", "1.0.0")),
        "/targets/1/subscription");
    refused(
        new JsonArray().add(target("db", "9.9.9")).add(target("app", "0.3.0")),
        "/targets/0/targetVersion");
    refused(
        new JsonArray().add(target("db", "1.1.0")).add(target("app", "banana")),
        "/targets/1/targetVersion");
    ApiClient.Response both =
        api.json(
            "POST",
            "/api/v1/rollouts",
            ADMIN,
            new JsonObject()
                .put("subscription", "db")
                .put("targetVersion", "1.1.0")
                .put("targets", new JsonArray().add(target("app", "0.3.0"))));
    assertThat(both.status()).as(both.body()).isEqualTo(422);
    JsonArray eleven = new JsonArray();
    for (int i = 0; i < 11; i++) {
      eleven.add(target("s" + i, "1.0.0"));
    }
    ApiClient.Response tooMany =
        api.json("POST", "/api/v1/rollouts", ADMIN, new JsonObject().put("targets", eleven));
    assertThat(tooMany.status()).as(tooMany.body()).isBetween(400, 422);
    assertThat(db.count("SELECT count(*) FROM rollouts")).isEqualTo(rollouts);
    assertThat(
            db.count(
                "SELECT count(*) FROM rollout_approvals WHERE rollout_id NOT IN (SELECT id FROM rollouts)"))
        .isZero();
  }

  private static void refused(JsonArray targets, String field) {
    ApiClient.Response r =
        api.json("POST", "/api/v1/rollouts", ADMIN, new JsonObject().put("targets", targets));
    assertThat(r.status()).as(r.body()).isEqualTo(422);
    assertThat(r.header("Content-Type")).startsWith("application/problem+json");
    assertThat(r.json().getJsonArray("errors").getJsonObject(0).getString("field"))
        .as(r.body())
        .isEqualTo(field);
  }

  private static JsonObject target(String subscription, String version) {
    return new JsonObject().put("subscription", subscription).put("targetVersion", version);
  }

  private static long installed(String subscription, String version) {
    return db.count(
        "SELECT count(*) FROM subscription_status WHERE subscription = ? AND installed_version = ? "
            + "AND phase = 'Succeeded'",
        subscription,
        version);
  }

  private static String state(String id) {
    return api.get("/api/v1/rollouts/" + id, ADMIN).json().getString("state");
  }

  private static Map<String, JsonObject> clusters(String id) {
    Map<String, JsonObject> out = new HashMap<>();
    for (Object c : api.get("/api/v1/rollouts/" + id + "/clusters", ADMIN).items()) {
      out.put(((JsonObject) c).getString("name"), (JsonObject) c);
    }
    return out;
  }
}
