package io.olmstead.controlplane.cli.client;

import static io.olmstead.controlplane.cli.client.CliRun.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Declarative rollouts with the client and the API against a real control plane (PostgreSQL, hollow
 * agents): the stored subscription is what was declared, re-applying the same files changes nothing
 * (also after a rollout), a version change under {@code rolloutStrategy} rolls out, a rolled-back
 * one is retried by {@code rollout retry}.
 */
class DeclarativeRolloutsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static ApiClient api;
  private static final List<HollowFleet> FLEETS = new ArrayList<>();

  @TempDir static Path home;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(DeclarativeRolloutsIT.class);
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    FLEETS.forEach(HollowFleet::close);
    vertx.close();
    cp.close();
  }

  /**
   * Two hollow clusters labelled {@code fleet=NAME}, running the subscription NAME at 0.9.2 when
   * this returns.
   */
  private static void fleetAt092(String name) {
    fleetAt092(name, "{\"fleet\":\"" + name + "\"}");
  }

  /** As {@link #fleetAt092(String)}, the clusters labelled {@code labels} (a JSON object). */
  private static void fleetAt092(String name, String labels) {
    FLEETS.add(
        HollowFleet.start(
            vertx,
            new HollowFleet.Settings(
                2,
                URI.create(cp.baseUrl()),
                fx.enrollmentToken(2, labels),
                name + "-",
                Duration.ofMillis(300),
                0.0,
                Map.of(),
                null,
                0)));
    await().atMost(Duration.ofSeconds(30)).until(() -> installed(name, "0.9.2") == 2);
  }

  private static long installed(String subscription, String version) {
    return fx.count(
        "SELECT count(*) FROM subscription_status WHERE subscription = ? AND installed_version = ? "
            + "AND phase = 'Succeeded'",
        subscription,
        version);
  }

  private static CliRun cli(String... args) {
    return CliRun.run(
        Map.of(
            "XDG_CONFIG_HOME",
            home.toString(),
            "OLMSTEAD_URL",
            cp.baseUrl(),
            "OLMSTEAD_TOKEN",
            ADMIN),
        "",
        args);
  }

  /**
   * The subscription NAME as a file declares it, pinned at {@code pin}, with {@code strategy}
   * (null: none).
   */
  private static Path file(String name, String pin, String strategy) throws Exception {
    Path file = home.resolve("repo-" + name).resolve("subscription.yaml");
    Files.createDirectories(file.getParent());
    return Files.writeString(
        file,
        "kind: Subscription\nname: "
            + name
            + "\nspec:\n  catalog: demo\n  package: etcd\n"
            + "  channel: alpha\n  namespace: "
            + name
            + "\n  placement: {selector: fleet="
            + name
            + "}\n"
            + "  version: {pin: \""
            + pin
            + "\"}\n  approval: Automatic\n"
            + (strategy == null ? "" : "  rolloutStrategy: " + strategy + "\n"));
  }

  private static JsonObject body(String name, String pin, String strategy) {
    JsonObject body =
        new JsonObject()
            .put("catalog", "demo")
            .put("package", "etcd")
            .put("channel", "alpha")
            .put("namespace", name)
            .put("placement", new JsonObject().put("selector", "fleet=" + name))
            .put("version", new JsonObject().put("pin", pin))
            .put("approval", "Automatic");
    return strategy == null ? body : body.put("rolloutStrategy", new JsonObject(strategy));
  }

  private static JsonArray rollouts(String subscription) {
    return api.get("/api/v1/rollouts?subscription=" + subscription, ADMIN).items();
  }

  private static String state(String id) {
    return api.get("/api/v1/rollouts/" + id, ADMIN).json().getString("state");
  }

  private static JsonObject subscription(String name) {
    return api.get("/api/v1/subscriptions/" + name, ADMIN).json();
  }

  private static long audited(String action, String resource) {
    return fx.count(
        "SELECT count(*) FROM audit_log WHERE action = ? AND resource = ? AND outcome = 'success'",
        action,
        resource);
  }

  @Test
  void applyingTheSameFilesTwiceIsUnchangedAndStartsNoRollout() throws Exception {
    Path repo = file("twice", "0.9.2", "{batchSize: 1}").getParent();
    assertThat(ok(cli("apply", "-f", repo.toString())).out())
        .isEqualTo("subscription/twice created\n");
    long version = subscription("twice").getLong("resourceVersion");
    assertThat(ok(cli("apply", "-f", repo.toString())).out())
        .isEqualTo("subscription/twice unchanged\n");
    assertThat(ok(cli("apply", "-f", repo.toString(), "--dry-run")).out())
        .isEqualTo("subscription/twice unchanged (dry run)\n");
    assertThat(subscription("twice").getLong("resourceVersion")).isEqualTo(version);
    assertThat(subscription("twice").getJsonObject("rolloutStrategy").getInteger("batchSize"))
        .isEqualTo(1);
    assertThat(rollouts("twice")).isEmpty();
  }

  @Test
  void aDeclaredVersionChangeRollsOutAndReapplyingTheFilesAfterItsSuccessChangesNothing()
      throws Exception {
    ok(cli("apply", "-f", file("gitops", "0.9.2", "{batchSize: 1}").toString()));
    fleetAt092("gitops");
    Path repo = file("gitops", "0.9.4", "{batchSize: 1}").getParent();
    CliRun changed = ok(cli("apply", "-f", repo.toString()));
    assertThat(changed.out())
        .matches(
            "subscription/gitops changed version: \\{\"pin\":\"0\\.9\\.2\"} -> "
                + "\\{\"pin\":\"0\\.9\\.4\"} \\(rollout ro-[0-9a-f-]+ started\\)\n");
    JsonArray listed = rollouts("gitops");
    assertThat(listed).hasSize(1);
    String id = listed.getJsonObject(0).getString("id");
    assertThat(changed.out()).contains(id);
    assertThat(listed.getJsonObject(0).getString("targetVersion")).isEqualTo("0.9.4");
    await().atMost(Duration.ofSeconds(60)).until(() -> "Succeeded".equals(state(id)));
    await().atMost(Duration.ofSeconds(20)).until(() -> installed("gitops", "0.9.4") == 2);
    JsonObject after = subscription("gitops");
    assertThat(after.getJsonObject("version").getString("pin")).isEqualTo("0.9.4");
    assertThat(after.containsKey("appliedVersion")).as(after.encode()).isFalse();
    assertThat(audited("subscription.applied", "subscriptions/gitops")).isEqualTo(1);
    // what a CI job re-applying its repository does: nothing (the pin is not reverted, no second
    // rollout)
    assertThat(ok(cli("apply", "-f", repo.toString(), "--dry-run")).out())
        .isEqualTo("subscription/gitops unchanged (dry run)\n");
    assertThat(ok(cli("apply", "-f", repo.toString())).out())
        .isEqualTo("subscription/gitops unchanged\n");
    assertThat(subscription("gitops").getJsonObject("version").getString("pin")).isEqualTo("0.9.4");
    assertThat(rollouts("gitops")).hasSize(1);
  }

  @Test
  void afterARollbackApplyIsUnchangedAndRolloutRetryStartsTheRolloutAgain() throws Exception {
    String strategy = "{batchSize: 1, soakSeconds: 600}";
    ok(cli("apply", "-f", file("rb", "0.9.2", strategy).toString()));
    fleetAt092("rb");
    Path repo = file("rb", "0.9.4", strategy).getParent();
    ok(cli("apply", "-f", repo.toString()));
    String id = rollouts("rb").getJsonObject(0).getString("id");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                api.get("/api/v1/rollouts/" + id, ADMIN)
                    .json()
                    .getJsonArray("waves")
                    .getJsonObject(0)
                    .getString("state")
                    .equals("Soaking"));
    // the declared version is the target; the cluster of the next wave is still told the version it
    // ran
    JsonObject moving = subscription("rb");
    assertThat(moving.getJsonObject("version").getString("pin")).isEqualTo("0.9.4");
    assertThat(moving.getJsonObject("appliedVersion").getString("pin")).isEqualTo("0.9.2");
    assertThat(installed("rb", "0.9.2")).isEqualTo(1);
    ok(cli("rollout", "rollback", id));
    await().atMost(Duration.ofSeconds(30)).until(() -> installed("rb", "0.9.2") == 2);
    assertThat(ok(cli("apply", "-f", repo.toString())).out())
        .isEqualTo("subscription/rb unchanged\n");
    assertThat(rollouts("rb")).hasSize(1);
    assertThat(ok(cli("describe", "subscription", "rb")).out())
        .contains(
            "Version:      pin 0.9.4",
            "Applied:      pin 0.9.2 (until a rollout to the version succeeds)",
            "Rollout:      {\"batchSize\":1,");

    // another team's operator does not see the rollout, so cannot retry it (nothing started, the
    // refusal audited)
    String stranger = api.createToken(ADMIN, "stranger", "operator", List.of("strangers"));
    assertThat(
            api.send("POST", "/api/v1/rollouts/" + id + "/retry", stranger, null, null, Map.of())
                .status())
        .isEqualTo(404);
    assertThat(rollouts("rb")).hasSize(1);
    CliRun retried = ok(cli("rollout", "retry", "rb"));
    JsonArray listed = rollouts("rb");
    assertThat(listed).hasSize(2);
    String again = listed.getJsonObject(0).getString("id");
    assertThat(again).isNotEqualTo(id);
    assertThat(retried.out()).startsWith("rollout " + again + " started (retry of " + id + ")\n");
    assertThat(listed.getJsonObject(0).getString("targetVersion")).isEqualTo("0.9.4");
    assertThat(listed.getJsonObject(0).getJsonObject("strategy").getInteger("soakSeconds"))
        .isEqualTo(600);
    assertThat(audited("rollout.retry", "rollouts/" + again)).isEqualTo(1);
    await().atMost(Duration.ofSeconds(30)).until(() -> installed("rb", "0.9.4") == 1);
    // an active rollout is not retried
    assertThat(cli("rollout", "retry", again).code()).isEqualTo(ExitCodes.CONFLICT_OR_FAILED);
    ok(cli("rollout", "abort", again));
  }

  @Test
  void aPutOfANewVersionUnderARolloutStrategyStartsARolloutListedBySubscription() {
    String strategy = "{\"batchSize\":1,\"soakSeconds\":600}";
    assertThat(
            api.json(
                    "PUT", "/api/v1/subscriptions/put-rs", ADMIN, body("put-rs", "0.9.2", strategy))
                .status())
        .isEqualTo(201);
    fleetAt092("put-rs");
    ApiClient.Response put =
        api.json("PUT", "/api/v1/subscriptions/put-rs", ADMIN, body("put-rs", "0.9.4", strategy));
    assertThat(put.status()).as(put.body()).isEqualTo(200);
    String id = put.json().getString("rollout");
    assertThat(id).startsWith("ro-");
    JsonArray listed = rollouts("put-rs");
    assertThat(listed).hasSize(1);
    assertThat(listed.getJsonObject(0).getString("id")).isEqualTo(id);
    assertThat(listed.getJsonObject(0).getString("state")).isEqualTo("Progressing");
    assertThat(
            fx.count(
                "SELECT count(*) FROM audit_log WHERE action = 'subscription.put' AND resource = "
                    + "'subscriptions/put-rs' AND detail->>'rollout' = ?",
                id))
        .isEqualTo(1);
    // another version while it moves the fleet is refused, nothing stored
    assertThat(
            api.json(
                    "PUT", "/api/v1/subscriptions/put-rs", ADMIN, body("put-rs", "0.9.2", strategy))
                .status())
        .isEqualTo(409);
    assertThat(subscription("put-rs").getJsonObject("version").getString("pin")).isEqualTo("0.9.4");
    assertThat(
            api.send("POST", "/api/v1/rollouts/" + id + "/abort", ADMIN, null, null, Map.of())
                .status())
        .isEqualTo(200);
    // an aborted rollout leaves the declared version declared and the one clusters ran applied
    JsonObject aborted = subscription("put-rs");
    assertThat(aborted.getJsonObject("version").getString("pin")).isEqualTo("0.9.4");
    assertThat(aborted.getJsonObject("appliedVersion").getString("pin")).isEqualTo("0.9.2");
  }

  @Test
  void aPutOfANewVersionWithoutARolloutStrategyAppliesAtOnce() {
    assertThat(
            api.json("PUT", "/api/v1/subscriptions/at-once", ADMIN, body("at-once", "0.9.2", null))
                .status())
        .isEqualTo(201);
    fleetAt092("at-once");
    ApiClient.Response put =
        api.json("PUT", "/api/v1/subscriptions/at-once", ADMIN, body("at-once", "0.9.4", null));
    assertThat(put.status()).as(put.body()).isEqualTo(200);
    assertThat(put.json().containsKey("rollout")).isFalse();
    assertThat(put.json().containsKey("appliedVersion")).isFalse();
    await().atMost(Duration.ofSeconds(30)).until(() -> installed("at-once", "0.9.4") == 2);
    assertThat(rollouts("at-once")).isEmpty();
  }

  @Test
  void aBadRolloutStrategyIsA422NamingTheFieldAndStoresNothing() {
    ApiClient.Response bad =
        api.json(
            "PUT",
            "/api/v1/subscriptions/bad-rs",
            ADMIN,
            body("bad-rs", "0.9.2", "{\"canary\":{\"count\":1,\"percent\":10}}"));
    assertThat(bad.status()).as(bad.body()).isEqualTo(422);
    assertThat(bad.header("Content-Type")).startsWith("application/problem+json");
    assertThat(bad.json().getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/rolloutStrategy/canary");
    assertThat(api.get("/api/v1/subscriptions/bad-rs", ADMIN).status()).isEqualTo(404);
    assertThat(
            api.json("PUT", "/api/v1/subscriptions/bad-rs", ADMIN, body("bad-rs", "0.9.2", null))
                .status())
        .isEqualTo(201);
    ApiClient.Response worse =
        api.json(
            "PUT",
            "/api/v1/subscriptions/bad-rs",
            ADMIN,
            body("bad-rs", "0.9.4", "{\"batchSize\":1,\"batchPercent\":10}"));
    assertThat(worse.status()).as(worse.body()).isEqualTo(422);
    assertThat(worse.json().getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/rolloutStrategy/batchPercent");
    // one the schema refuses names its field too
    ApiClient.Response schema =
        api.json(
            "PUT",
            "/api/v1/subscriptions/bad-rs",
            ADMIN,
            body("bad-rs", "0.9.4", "{\"maxFailures\":\"ten\"}"));
    assertThat(schema.status()).as(schema.body()).isEqualTo(422);
    assertThat(schema.json().getJsonArray("errors").encode())
        .contains("/rolloutStrategy/maxFailures");
    JsonObject stored = subscription("bad-rs");
    assertThat(stored.getJsonObject("version").getString("pin")).isEqualTo("0.9.2");
    assertThat(stored.containsKey("rolloutStrategy")).isFalse();
  }

  @Test
  void aTeamsRolloutStrategyWithAnInlineQueryIsA422NamingTheFieldAndStoresNothing() {
    // stored now, run later under whoever changes the version: a team may name templates only, as
    // in a rollout
    String team = api.createToken(ADMIN, "inline-query-team", "operator", List.of("queriers"));
    JsonObject body =
        body(
                "team-rs",
                "0.9.2",
                "{\"batchSize\":1,\"analysis\":[{\"name\":\"errors\","
                    + "\"query\":\"sum(rate(errors_total[5m]))\",\"successIf\":\"< 1\"}]}")
            .put("team", "queriers");
    ApiClient.Response refused = api.json("PUT", "/api/v1/subscriptions/team-rs", team, body);
    assertThat(refused.status()).as(refused.body()).isEqualTo(422);
    assertThat(refused.json().getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/rolloutStrategy/analysis/0/query");
    assertThat(api.get("/api/v1/subscriptions/team-rs", ADMIN).status()).isEqualTo(404);
    // the same strategy from a fleet admin is stored
    assertThat(api.json("PUT", "/api/v1/subscriptions/team-rs", ADMIN, body).status())
        .isEqualTo(201);
  }

  @Test
  void aRolloutStrategyNamingNoTemplateIsA422AtPutTimeNamingItsField() {
    // refused when declared, not at the later version change, and named as the subscription's field
    JsonObject body =
        body(
            "no-tpl",
            "0.9.2",
            "{\"batchSize\":1,\"analysis\":[{\"name\":\"errors\","
                + "\"templateName\":\"no-such-template\"}]}");
    ApiClient.Response refused = api.json("PUT", "/api/v1/subscriptions/no-tpl", ADMIN, body);
    assertThat(refused.status()).as(refused.body()).isEqualTo(422);
    assertThat(refused.json().getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/rolloutStrategy/analysis/0/templateName");
    assertThat(api.get("/api/v1/subscriptions/no-tpl", ADMIN).status()).isEqualTo(404);
  }

  @Test
  void aRetryOfARolloutWhoseSubscriptionMovedToAnotherTeamIs404() {
    String strategy = "{\"batchSize\":1,\"soakSeconds\":600}";
    String owners = api.createToken(ADMIN, "movers-a", "operator", List.of("movers-a"));
    assertThat(
            api.json(
                    "PUT",
                    "/api/v1/subscriptions/moved",
                    ADMIN,
                    body("moved", "0.9.2", strategy).put("team", "movers-a"))
                .status())
        .isEqualTo(201);
    fleetAt092("moved", "{\"fleet\":\"moved\",\"olmstead.io/team\":\"movers-a\"}");
    ApiClient.Response put =
        api.json(
            "PUT",
            "/api/v1/subscriptions/moved",
            owners,
            body("moved", "0.9.4", strategy).put("team", "movers-a"));
    assertThat(put.status()).as(put.body()).isEqualTo(200);
    String id = put.json().getString("rollout");
    assertThat(
            api.send("POST", "/api/v1/rollouts/" + id + "/abort", owners, null, null, Map.of())
                .status())
        .isEqualTo(200);
    ApiClient.Response moved =
        api.json(
            "PUT",
            "/api/v1/subscriptions/moved",
            ADMIN,
            body("moved", "0.9.2", null).put("team", "movers-b"));
    assertThat(moved.status()).as(moved.body()).isEqualTo(200);
    // the rollout is still movers-a's, the subscription is not: a 404, not a 409 naming what it now
    // declares
    ApiClient.Response retried =
        api.send("POST", "/api/v1/rollouts/" + id + "/retry", owners, null, null, Map.of());
    assertThat(retried.status()).as(retried.body()).isEqualTo(404);
    assertThat(retried.body()).doesNotContain("0.9.2");
    assertThat(rollouts("moved")).hasSize(1);
  }

  @Test
  void anImperativeRolloutDeclaresItsTargetAndSaysSo() {
    assertThat(
            api.json("PUT", "/api/v1/subscriptions/imp", ADMIN, body("imp", "0.9.2", null))
                .status())
        .isEqualTo(201);
    fleetAt092("imp");
    ApiClient.Response created =
        api.json(
            "POST",
            "/api/v1/rollouts",
            ADMIN,
            new JsonObject()
                .put("subscription", "imp")
                .put("targetVersion", "0.9.4")
                .put("strategy", new JsonObject().put("batchSize", 1)));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().getBoolean("declaredVersionChanged")).isTrue();
    String id = created.json().getString("id");
    assertThat(subscription("imp").getJsonObject("version").getString("pin")).isEqualTo("0.9.4");
    assertThat(
            fx.count(
                "SELECT count(*) FROM audit_log WHERE action = 'subscription.declare' AND resource = "
                    + "'subscriptions/imp' AND detail->>'rollout' = ?",
                id))
        .isEqualTo(1);
    await().atMost(Duration.ofSeconds(60)).until(() -> "Succeeded".equals(state(id)));
    JsonObject after = subscription("imp");
    assertThat(after.getJsonObject("version").getString("pin")).isEqualTo("0.9.4");
    assertThat(after.containsKey("appliedVersion")).as(after.encode()).isFalse();
    // the same version declared again (a file brought in step) is no change and no rollout
    ApiClient.Response same =
        api.json("PUT", "/api/v1/subscriptions/imp", ADMIN, body("imp", "0.9.4", null));
    assertThat(same.status()).isEqualTo(200);
    assertThat(same.json().getLong("generation")).isEqualTo(after.getLong("generation"));
    assertThat(rollouts("imp")).hasSize(1);
  }
}
