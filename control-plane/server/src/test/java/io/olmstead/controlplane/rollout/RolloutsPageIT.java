package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.testsupport.Browsers;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The Rollouts page in headless Chromium against a real control plane and engine, with clusters
 * written as connected and their agents' reports written to {@code subscription_status} (what the
 * gateway would store): the waves on a timeline grouped by label, a failed member's own error, the
 * history, a rollback from the page that then says RolledBack everywhere, a wave waiting for its
 * maintenance window, and the clusters table paged.
 */
class RolloutsPageIT {
  private static TestControlPlane cp;
  private static RolloutFixtures fx;
  private static ChromeDriver browser;

  @BeforeAll
  static void start() {
    browser = Browsers.headless();
    cp = TestControlPlane.start(RolloutsPageIT.class);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
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

  /**
   * Connected clusters running 0.9.2 of {@code subscription}, as their agents would have reported.
   */
  private static void clusters(String subscription, String labelsSql, String names) {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status, last_seen) SELECT n, "
            + labelsSql
            + ", 'connected', now() + interval '1 hour' FROM ("
            + names
            + ") AS t(n)");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "target_version, phase, seq) SELECT '"
            + subscription
            + "', n, '0.9.2', '0.9.2', 'Succeeded', 1 FROM ("
            + names
            + ") AS t(n)");
  }

  private static JsonObject api(String method, String path, String body) throws Exception {
    HttpResponse<String> r = RolloutIT.call(cp.port(), method, path, body);
    assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isBetween(200, 201);
    return new JsonObject(r.body());
  }

  private static Object js(String script, Object... args) {
    return ((JavascriptExecutor) browser).executeScript(script, args);
  }

  /**
   * Texts of the elements matching {@code css}, read in one script call (the page re-renders on
   * every event).
   */
  @SuppressWarnings("unchecked")
  private static List<String> texts(String css) {
    return new ArrayList<>(
        (List<String>)
            js(
                "return Array.from(document.querySelectorAll(arguments[0]))"
                    + ".map(e => e.textContent.trim())",
                css));
  }

  @SuppressWarnings("unchecked")
  private static List<String> attributes(String css, String attribute) {
    return new ArrayList<>(
        (List<String>)
            js(
                "return Array.from(document.querySelectorAll(arguments[0]))"
                    + ".map(e => e.getAttribute(arguments[1]))",
                css,
                attribute));
  }

  @Test
  void aFailedMemberShowsTheAgentsErrorAndARollbackFromThePageSaysRolledBackEverywhere()
      throws Exception {
    fx.subscription("rb", "fleet=rb", "0.9.2");
    clusters(
        "rb",
        "jsonb_build_object('fleet', 'rb', 'region', CASE WHEN n < 'rb-3' THEN 'eu' ELSE 'us' END)",
        "VALUES ('rb-1'), ('rb-2'), ('rb-3'), ('rb-4')");
    String id =
        api(
                "POST",
                "/rollouts",
                "{\"subscription\":\"rb\",\"targetVersion\":\"0.9.4\",\"strategy\":"
                    + "{\"groupBy\":\"region\",\"maxUnavailable\":10,\"onFailure\":\"pause\",\"preflight\":\"Off\"}}")
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
    // the agents answer: rb-1 runs 0.9.4, rb-2 failed with its own reason and message
    TestDatabase.execute(
        cp.database(),
        "UPDATE subscription_status SET installed_version = '0.9.4', "
            + "target_version = '0.9.4', updated_at = now() WHERE cluster = 'rb-1'");
    TestDatabase.execute(
        cp.database(),
        "UPDATE subscription_status SET target_version = '0.9.4', phase = 'Failed', "
            + "reason = 'InstallCheckFailed', message = 'deployment etcd-operator: ImagePullBackOff', updated_at = now() "
            + "WHERE cluster = 'rb-2'");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> "Paused".equals(api("GET", "/rollouts/" + id, null).getString("state")));

    browser.get(cp.baseUrl() + "/ui/#/rollouts/" + id);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> texts("#rollout-state").equals(List.of("Paused")));
    assertThat(attributes("[data-test=wave-group]", "data-group"))
        .containsExactly("region=eu", "region=us");
    assertThat(attributes("[data-test=wave]", "data-wave"))
        .containsExactly("region=eu", "region=us");
    assertThat(
            ((Number)
                    js(
                        "return document.querySelectorAll('[data-test=wave][data-wave=\"region=eu\"] [data-test=timeline] rect')"
                            + ".length"))
                .intValue())
        .as("the open wave has its span on the timeline")
        .isPositive();
    assertThat(
            ((Number)
                    js(
                        "return document.querySelectorAll('[data-test=wave][data-wave=\"region=us\"] [data-test=timeline] rect')"
                            + ".length"))
                .intValue())
        .as("a wave not opened has none")
        .isZero();
    // the agent's own reason and message, once (the rollout's message already carries them here)
    assertThat(texts("[data-test=member][data-cluster=rb-2] td:last-child"))
        .singleElement()
        .asString()
        .containsOnlyOnce("InstallCheckFailed: deployment etcd-operator: ImagePullBackOff");
    assertThat(texts("[data-test=member][data-cluster=rb-2] [data-test=state]"))
        .containsExactly("Failed");
    assertThat(attributes("[data-test=history]", "data-kind")).contains("Created", "Paused");
    assertThat(texts("#rollout-legend [data-test=legend-item]"))
        .contains("Open", "Soaking", "WaitingForWindow", "RolledBack");

    Browsers.click(browser, "button[data-cmd=rollback]");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> texts("#rollout-state").equals(List.of("RolledBack")));
    JsonObject after = api("GET", "/rollouts/" + id, null);
    assertThat(after.getJsonArray("waves").getJsonObject(0).getString("state"))
        .as("what the API stores")
        .isNotEqualTo("RolledBack");
    await().atMost(Duration.ofSeconds(10)).until(() -> texts("#rolled-back").size() == 1);
    String actor =
        after.getJsonArray("history").stream()
            .map(JsonObject.class::cast)
            .filter(h -> "RolledBack".equals(h.getString("kind")))
            .findFirst()
            .orElseThrow()
            .getString("actor");
    assertThat(texts("#rolled-back").get(0)).startsWith("Rolled back by " + actor);
    assertThat(texts("[data-test=history][data-kind=RolledBack] [data-test=actor]"))
        .containsExactly(actor);
    assertThat(attributes("[data-test=wave]", "data-state"))
        .as("no wave of a rolled-back rollout reads Succeeded")
        .containsExactly("RolledBack", "Pending");
    assertThat(texts("[data-test=wave] [data-test=wave-state]"))
        .doesNotContain("Succeeded", "Open");
    assertThat(browser.findElements(By.cssSelector("button[data-cmd]")))
        .as("no command on an ended rollout")
        .isEmpty();

    browser.get(cp.baseUrl() + "/ui/#/rollouts");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> !texts("[data-test=rollout][data-id=" + id + "] [data-test=state]").isEmpty());
    assertThat(texts("[data-test=rollout][data-id=" + id + "] [data-test=state]"))
        .containsExactly("RolledBack");
  }

  @Test
  void aWaveWaitingForItsWindowSaysSoAndItsClustersComeAPageAtATime() throws Exception {
    fx.subscription("win", "fleet=win", "0.9.2");
    clusters(
        "win",
        "'{\"fleet\":\"win\",\"zone\":\"a\"}'::jsonb",
        "SELECT 'w-' || lpad(i::text, 3, '0') FROM " + "generate_series(1, 105) AS i");
    // a window once a year, on 1 January at 03:00: closed now unless the test runs then
    api(
        "PUT",
        "/maintenance-windows/zone-a",
        new JsonObject()
            .put("selector", "zone=a")
            .put("cron", "0 3 1 1 *")
            .put("durationMinutes", 30)
            .put("timeZone", "UTC")
            .encode());
    String id =
        api("POST", "/rollouts", "{\"subscription\":\"win\",\"targetVersion\":\"0.9.4\"}")
            .getString("id");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                "WaitingForWindow"
                    .equals(
                        api("GET", "/rollouts/" + id, null)
                            .getJsonArray("waves")
                            .getJsonObject(0)
                            .getString("state")));

    // the API pages the clusters by wave then name
    List<String> names = new ArrayList<>();
    String cursor = null;
    for (int pages = 0; pages < 10; pages++) {
      JsonObject page =
          api(
              "GET",
              "/rollouts/"
                  + id
                  + "/clusters?limit=40"
                  + (cursor == null ? "" : "&cursor=" + cursor),
              null);
      page.getJsonArray("items").forEach(o -> names.add(((JsonObject) o).getString("name")));
      cursor = page.getString("nextCursor");
      if (cursor == null) {
        break;
      }
    }
    assertThat(names).hasSize(105).isSorted().doesNotHaveDuplicates();

    browser.get(cp.baseUrl() + "/ui/#/rollouts/" + id);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> attributes("[data-test=wave]", "data-state").equals(List.of("WaitingForWindow")));
    assertThat(texts("[data-test=wave] [data-test=wave-state]"))
        .containsExactly("WaitingForWindow");
    assertThat(attributes("[data-test=history]", "data-kind")).contains("WaveWaitingForWindow");
    assertThat(browser.findElements(By.cssSelector("[data-test=member]"))).hasSize(100);
    Browsers.click(browser, "#clusters-next");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> attributes("[data-test=member]", "data-cluster").size() == 5);
    assertThat(attributes("[data-test=member]", "data-cluster"))
        .containsExactly("w-101", "w-102", "w-103", "w-104", "w-105");
    assertThat(texts("[data-test=pager]").get(0)).startsWith("Page 2");
  }

  @Test
  void aRolloutOfSeveralSubscriptionsListsItsTargetsWithVersionStateAndCounts() throws Exception {
    fx.subscription("ta", "fleet=mt", "0.9.2");
    fx.subscription("tb", "fleet=mt", "0.9.2");
    clusters("ta", "'{\"fleet\":\"mt\"}'::jsonb", "VALUES ('mt-1'), ('mt-2')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "target_version, phase, seq) VALUES ('tb', 'mt-1', '0.9.2', '0.9.2', 'Succeeded', 1), "
            + "('tb', 'mt-2', '0.9.2', '0.9.2', 'Succeeded', 1)");
    JsonObject created =
        api(
            "POST",
            "/rollouts",
            "{\"targets\":[{\"subscription\":\"ta\",\"targetVersion\":"
                + "\"0.9.4\"},{\"subscription\":\"tb\",\"targetVersion\":\"0.9.4\"}],\"strategy\":{\"batchSize\":10,\"maxUnavailable\":10,"
                + "\"preflight\":\"Off\"}}");
    String id = created.getString("id");
    String second = created.getJsonArray("targets").getJsonObject(1).getString("rollout");

    browser.get(cp.baseUrl() + "/ui/#/rollouts/" + second);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                attributes("[data-test=target]", "data-subscription").equals(List.of("ta", "tb")));
    assertThat(attributes("[data-test=target]", "data-rollout")).containsExactly(id, second);
    assertThat(texts("[data-test=target] [data-test=target-version]"))
        .containsExactly("0.9.4", "0.9.4");
    assertThat(texts("[data-test=target] [data-test=target-clusters]")).containsExactly("2", "2");
    assertThat(texts("[data-test=target] [data-test=state]"))
        .containsExactly("Progressing", "Progressing");
    assertThat(attributes("[data-test=target]", "class"))
        .as("the target this page shows")
        .containsExactly(null, "current");
    assertThat(texts("[data-test=target] [data-test=target-succeeded]")).containsExactly("0", "0");
    assertThat(browser.findElements(By.cssSelector("[data-test=target] [data-test=counts]")))
        .hasSize(2);
  }
}
