package io.olmstead.controlplane.adoption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.Browsers;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * {@code GET /subscriptions/{name}/adoption} on a real control plane: the sampler's snapshots come
 * back as points with the last snapshot carried forward, bad windows are 422 naming the parameter,
 * another team's subscription is 404.
 */
class AdoptionIT {
  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures fx;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(AdoptionIT.class);
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void pointsCarryTheSnapshotInEffectAndEndWithWhatTheSamplerCountedNow() throws Exception {
    fx.subscription("adopted", "fleet=a", "0.9.4");
    Instant twoHoursAgo = Instant.now().minus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES);
    // what an earlier sample wrote: three clusters on 0.9.2 two hours ago
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_adoption (subscription, team, at, version, clusters) "
            + "VALUES ('adopted', NULL, '"
            + twoHoursAgo
            + "', '0.9.2', 3)");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "phase, seq) VALUES ('adopted', 'a-1', '0.9.4', 'Succeeded', 1), "
            + "('adopted', 'a-2', '0.9.4', 'Succeeded', 1), "
            + "('adopted', 'a-3', '0.9.2', 'Succeeded', 1)");
    cp.controlPlane()
        .adoption()
        .sampler()
        .sampleNow()
        .toCompletionStage()
        .toCompletableFuture()
        .join();

    JsonObject body = ok("/api/v1/subscriptions/adopted/adoption?since=PT3H&step=PT30M");
    assertThat(body.getString("step")).isEqualTo("PT30M");
    assertThat(body.getJsonArray("versions")).containsExactly("0.9.2", "0.9.4");
    JsonArray points = body.getJsonArray("points");
    assertThat(points).hasSize(7);
    assertThat(points.getJsonObject(0).getJsonObject("clusters").getMap())
        .as("before any sample")
        .isEmpty();
    assertThat(points.getJsonObject(3).getJsonObject("clusters").getMap())
        .as("1h30 ago: carried forward")
        .isEqualTo(Map.of("0.9.2", 3));
    assertThat(points.getJsonObject(6).getJsonObject("clusters").getMap())
        .as("now")
        .isEqualTo(Map.of("0.9.2", 1, "0.9.4", 2));

    JsonObject defaults = ok("/api/v1/subscriptions/adopted/adoption");
    assertThat(defaults.getString("since")).isEqualTo("PT24H");
    assertThat(defaults.getString("step")).isEqualTo("PT12M");
    assertThat(defaults.getJsonArray("points")).hasSize(121);
  }

  /**
   * The Adoption page draws the points with Chart.js (from its WebJar), one dataset per version.
   */
  @Test
  @SuppressWarnings("unchecked")
  void theAdoptionPageDrawsEachVersionWithChartJs() {
    fx.subscription("charted", "fleet=c", "0.9.4");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "phase, seq) VALUES ('charted', 'c-1', '0.9.4', 'Succeeded', 1), "
            + "('charted', 'c-2', '0.9.4', 'Succeeded', 1), "
            + "('charted', 'c-3', '0.9.2', 'Succeeded', 1)");
    cp.controlPlane()
        .adoption()
        .sampler()
        .sampleNow()
        .toCompletionStage()
        .toCompletableFuture()
        .join();
    ChromeDriver browser = Browsers.headless();
    try {
      Browsers.signIn(browser, cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
      browser.get(cp.baseUrl() + "/ui/#/adoption/charted");
      JavascriptExecutor js = browser;
      String read =
          "const c = window.Chart && Chart.getChart('adoption-chart'); return c ? c.data.datasets.map("
              + "d => [d.label, d.data[d.data.length - 1]]) : null;";
      await().atMost(Duration.ofSeconds(10)).until(() -> js.executeScript(read) != null);
      assertThat((List<List<Object>>) js.executeScript(read))
          .containsExactly(List.of("0.9.2", 1L), List.of("0.9.4", 2L));
      assertThat(browser.findElements(By.cssSelector("#adoption-now tr[data-version]"))).hasSize(2);
    } finally {
      browser.quit();
    }
  }

  private static JsonObject ok(String path) {
    Response r = api.get(path, TestControlPlane.ADMIN_TOKEN);
    assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
    return r.json();
  }

  @Test
  void badWindowsAre422NamingTheParameter() {
    Map<String, String> bad =
        Map.of(
            "since=banana", "since",
            "since=P31D", "since",
            "since=PT30S", "since",
            "step=PT10S", "step",
            "since=PT1H&step=PT2H", "step",
            "since=P7D&step=PT1M", "step");
    bad.forEach(
        (query, field) -> {
          Response r =
              api.get(
                  "/api/v1/subscriptions/adopted-bad/adoption?" + query,
                  TestControlPlane.ADMIN_TOKEN);
          assertThat(r.status()).as(query + ": " + r.body()).isEqualTo(422);
          assertThat(r.header("content-type")).isEqualTo("application/problem+json");
          assertThat(r.json().getJsonArray("errors").getJsonObject(0).getString("field"))
              .as(query)
              .isEqualTo(field);
        });
  }

  @Test
  void anotherTeamsSubscriptionIs404LikeOneThatDoesNotExist() {
    fx.subscription("beta-adopted", "fleet=b", "0.9.2");
    TestDatabase.execute(
        cp.database(), "UPDATE subscriptions SET team = 'beta' WHERE name = 'beta-adopted'");
    String alpha =
        api.json(
                "POST",
                "/api/v1/tokens",
                TestControlPlane.ADMIN_TOKEN,
                new JsonObject()
                    .put("name", "alpha-viewer")
                    .put("role", "viewer")
                    .put("teams", List.of("alpha")))
            .json()
            .getString("token");
    Response foreign = api.get("/api/v1/subscriptions/beta-adopted/adoption", alpha);
    assertThat(foreign.status()).as(foreign.body()).isEqualTo(404);
    assertThat(api.get("/api/v1/subscriptions/ghost/adoption", alpha).status()).isEqualTo(404);
    assertThat(
            api.get("/api/v1/subscriptions/beta-adopted/adoption", TestControlPlane.ADMIN_TOKEN)
                .status())
        .isEqualTo(200);
  }
}
