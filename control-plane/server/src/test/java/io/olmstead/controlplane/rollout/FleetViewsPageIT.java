package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.testsupport.Browsers;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The Fleet page and the Matrix page in headless Chromium during a paused rollout whose us cluster
 * a freeze holds: the Fleet page lists the rollout as Paused and the held cluster with its reason
 * and a relative age (full timestamp in the title); the matrix shows each cluster's version and
 * phase and the same reason in the cell.
 */
class FleetViewsPageIT {
  private static TestControlPlane cp;
  private static ChromeDriver browser;
  private static String id;

  @BeforeAll
  static void start() throws Exception {
    browser = Browsers.headless();
    cp = TestControlPlane.start(FleetViewsPageIT.class);
    RolloutFixtures fx = new RolloutFixtures(cp.database());
    fx.catalog();
    fx.subscription("mx", "fleet=mx", "0.9.2");
    // a Manual subscription: its agents wait for a person to approve each bundle
    TestDatabase.execute(
        cp.database(), "UPDATE subscriptions SET approval = 'Manual' WHERE name = 'mx'");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status, last_seen) VALUES "
            + "('mx-1', '{\"fleet\":\"mx\",\"region\":\"eu\"}', 'connected', now() + interval '1 hour'), "
            + "('mx-2', '{\"fleet\":\"mx\",\"region\":\"eu\"}', 'connected', now() + interval '1 hour'), "
            + "('mx-3', '{\"fleet\":\"mx\",\"region\":\"us\"}', 'connected', now() + interval '1 hour')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "target_version, phase, seq) SELECT 'mx', n, '0.9.2', '0.9.2', 'Succeeded', 1 FROM "
            + "(VALUES ('mx-1'), ('mx-2'), ('mx-3')) AS t(n)");
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    api(
        "PUT",
        "/freezes/us-freeze",
        new JsonObject()
            .put("start", now.minus(Duration.ofHours(1)).toString())
            .put("end", now.plus(Duration.ofHours(3)).toString())
            .put("selector", "region=us")
            .put("reason", "us release freeze")
            .encode());
    id =
        api(
                "POST",
                "/rollouts",
                "{\"subscription\":\"mx\",\"targetVersion\":\"0.9.4\",\"strategy\":"
                    + "{\"maxUnavailable\":10,\"preflight\":\"Off\"}}")
            .getString("id");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                fx.count(
                        "SELECT count(*) FROM rollout_clusters WHERE "
                            + "rollout_id = ? AND step = 'Progressing'",
                        id)
                    == 2);
    api("POST", "/rollouts/" + id + "/pause", null);
    assertThat(api("GET", "/rollouts/" + id, null).getString("state")).isEqualTo("Paused");
    // approved for 0.9.4, mx-1's agent says it waits for a person to approve the bundle
    TestDatabase.execute(
        cp.database(),
        "UPDATE subscription_status SET phase = 'RequiresApproval', reason = "
            + "'RequiresApproval', conditions = '[{\"type\":\"RequiresApproval\",\"status\":\"True\",\"reason\":"
            + "\"RequiresApproval\",\"message\":\"etcdoperator.v0.9.4\"}]' "
            + "WHERE subscription = 'mx' AND cluster = 'mx-1'");
    Browsers.signIn(browser, cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (cp != null) {
      cp.close();
    }
  }

  @Test
  void theFleetPageShowsThePausedRolloutAndTheHeldClusterWithItsReasonAndAge() {
    browser.get(cp.baseUrl() + "/ui/#/");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                js(
                        "return document.querySelector("
                            + "'#active-rollouts [data-test=rollout][data-state=Paused]')")
                    != null);
    assertThat(
            js("return document.querySelector('#active-rollouts [data-test=rollout]').dataset.id"))
        .isEqualTo(id);
    assertThat(
            js(
                "return document.querySelector('#stuck [data-test=stuck][data-cluster=\"mx-3\"] [data-test=reason]').textContent"))
        .asString()
        .startsWith("Frozen (freeze us-freeze until ");
    assertThat(
            js(
                "return document.querySelector('#stuck [data-test=stuck][data-cluster=\"mx-3\"]').dataset.code"))
        .isEqualTo("Frozen");
    // relative ages, the full timestamp in the title
    assertThat(js("return document.querySelector('#active-rollouts [data-test=age]').textContent"))
        .asString()
        .matches("\\d+ (s|min) ago");
    assertThat(js("return document.querySelector('#active-rollouts [data-test=age]').title"))
        .asString()
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d.*Z");
    // the freeze's end is ahead; mx-1 has waited for a person since its agent said so
    assertThat(
            js(
                "return document.querySelector('#stuck [data-test=stuck][data-cluster=\"mx-3\"] [data-test=age]').textContent"))
        .asString()
        .startsWith("in ");
    assertThat(
            js(
                "return document.querySelector('#stuck [data-test=stuck][data-cluster=\"mx-1\"]').dataset.code"))
        .isEqualTo("WaitingForApproval");
  }

  @Test
  void theMatrixShowsEachClustersVersionAndPhaseAndTheReasonItIsHeld() {
    browser.get(cp.baseUrl() + "/ui/#/matrix?subscriptions=mx");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                js("return document.querySelector(" + "'#matrix tr[data-cluster=\"mx-3\"]')")
                    != null);
    assertThat(
            js(
                "return [...document.querySelectorAll('#matrix tr[data-cluster]')].map((r) => r.dataset.cluster)"))
        .asList()
        .containsExactly("mx-1", "mx-2", "mx-3");
    assertThat(
            js(
                "return document.querySelector('#matrix tr[data-cluster=\"mx-3\"] td[data-subscription=mx] "
                    + "[data-test=version]').textContent"))
        .isEqualTo("0.9.2");
    assertThat(
            js(
                "return document.querySelector('#matrix tr[data-cluster=\"mx-3\"] td[data-subscription=mx] "
                    + "[data-test=phase]').textContent"))
        .isEqualTo("Succeeded");
    assertThat(
            js(
                "return document.querySelector('#matrix tr[data-cluster=\"mx-3\"] [data-test=reason]').textContent"))
        .asString()
        .startsWith("Frozen (freeze us-freeze until ");
    assertThat(
            js(
                "return document.querySelector('#matrix tr[data-cluster=\"mx-3\"] a').getAttribute('href')"))
        .isEqualTo("#/clusters/mx-3");
    // sorting by the column's phase is the server's: descending puts the same phase in reverse name
    // order
    browser.get(cp.baseUrl() + "/ui/#/matrix?subscriptions=mx&sort=-phase%3Amx");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                "mx-3"
                    .equals(
                        js(
                            "const r = document.querySelector("
                                + "'#matrix tr[data-cluster]'); return r && r.dataset.cluster")));
  }

  @Test
  void theRolloutPageShowsTheClusterWaitingForAPersonToApproveItsBundle() {
    browser.get(cp.baseUrl() + "/ui/#/rollouts/" + id);
    String reason =
        "return document.querySelector('[data-test=member][data-cluster=\"%s\"] [data-test=reason]')";
    await().atMost(Duration.ofSeconds(20)).until(() -> js(reason.formatted("mx-1")) != null);
    assertThat(js(reason.formatted("mx-1") + ".dataset.reason")).isEqualTo("WaitingForApproval");
    assertThat(js(reason.formatted("mx-1") + ".textContent"))
        .asString()
        .startsWith("WaitingForApproval (bundle etcdoperator.v0.9.4");
    assertThat(js(reason.formatted("mx-3") + ".dataset.reason")).isEqualTo("Frozen");
    assertThat(js(reason.formatted("mx-2"))).as("approved and installing: no reason").isNull();
  }

  private static Object js(String script) {
    return ((JavascriptExecutor) browser).executeScript(script);
  }

  private static JsonObject api(String method, String path, String body) throws Exception {
    HttpResponse<String> r = RolloutIT.call(cp.port(), method, path, body);
    assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isBetween(200, 201);
    return new JsonObject(r.body());
  }
}
