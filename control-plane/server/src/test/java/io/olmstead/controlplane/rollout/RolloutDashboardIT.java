package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.server.ControlPlane;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard in headless Chromium: a running rollout renders, its numbers match the API, events
 * update it.
 */
class RolloutDashboardIT {
  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String DRIVER = "/usr/bin/chromedriver";

  @Test
  void aRunningRolloutRendersWithTheApiNumbersAndUpdatesLive() throws Exception {
    Assumptions.assumeTrue(
        new File(CHROMIUM).canExecute() && new File(DRIVER).canExecute(),
        "skipped: headless Chromium needs "
            + CHROMIUM
            + " and "
            + DRIVER
            + " (Debian chromium, chromium-driver)");
    DatabaseSettings db = TestDatabase.create(RolloutDashboardIT.class);
    Vertx vertx = Vertx.vertx();
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(Map.of(), "127.0.0.1")
            .withPort(0)
            .withDatabase(db)
            .withAdminToken(TestControlPlane.ADMIN_TOKEN);
    ControlPlane cp =
        ControlPlane.start(config)
            .toCompletionStage()
            .toCompletableFuture()
            .get(2, TimeUnit.MINUTES);
    int port = cp.port();
    RolloutFixtures fx = new RolloutFixtures(db);
    fx.catalog();
    fx.subscription("ui", "fleet=ui", "0.9.2");
    HollowFleet agents =
        HollowFleet.start(
            vertx,
            new HollowFleet.Settings(
                6,
                URI.create("http://127.0.0.1:" + port),
                fx.enrollmentToken(6, "{\"fleet\":\"ui\",\"region\":\"eu\"}"),
                "ui-",
                Duration.ofMillis(300),
                0.0,
                Map.of(),
                null,
                0));
    ChromeOptions options =
        new ChromeOptions()
            .setBinary(CHROMIUM)
            .addArguments(
                "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000");
    ChromeDriver browser =
        new ChromeDriver(
            new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER))
                .usingAnyFreePort()
                .build(),
            options);
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status "
                              + "WHERE subscription = 'ui' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                      == 6);
      HttpResponse<String> created =
          RolloutIT.call(
              port,
              "POST",
              "/rollouts",
              "{\"subscription\":\"ui\","
                  + "\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":2,\"soakSeconds\":2}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      String id = new JsonObject(created.body()).getString("id");
      RolloutIT.call(port, "POST", "/rollouts/" + id + "/pause", null);

      browser.get("http://127.0.0.1:" + port + "/ui/");
      browser.findElement(By.id("token")).sendKeys(TestControlPlane.ADMIN_TOKEN);
      browser.findElement(By.cssSelector("#login-form button")).click();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> browser.findElements(By.id("clusters-total")).size() == 1);
      assertThat(text(browser, "clusters-total")).isEqualTo("6");

      browser.get("http://127.0.0.1:" + port + "/ui/#/rollouts/" + id);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> browser.findElements(By.id("rollout-state")).size() == 1);
      JsonObject api = new JsonObject(RolloutIT.call(port, "GET", "/rollouts/" + id, null).body());
      assertThat(text(browser, "rollout-state")).isEqualTo(api.getString("state"));
      assertThat(text(browser, "count-clusters")).isEqualTo("6");
      assertThat(browser.findElements(By.cssSelector("[data-test=wave]")))
          .hasSize(api.getJsonArray("waves").size());
      assertThat(text(browser, "count-succeeded"))
          .isEqualTo(String.valueOf(api.getJsonObject("counts").getInteger("succeeded")));
      assertThat(browser.findElements(By.cssSelector("#clusters [data-test=member]"))).hasSize(6);
      assertThat(browser.findElements(By.cssSelector("button[data-cmd=resume]"))).hasSize(1);

      // a viewer sees the same rollout without the commands it may not use
      String viewer =
          new JsonObject(
                  RolloutIT.call(
                          port,
                          "POST",
                          "/tokens",
                          "{\"name\":\"ui-viewer\"," + "\"role\":\"viewer\"}")
                      .body())
              .getString("token");
      ((JavascriptExecutor) browser).executeScript("sessionStorage.clear()");
      browser.get("http://127.0.0.1:" + port + "/ui/");
      browser.findElement(By.id("token")).sendKeys(viewer);
      browser.findElement(By.cssSelector("#login-form button")).click();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> browser.findElements(By.id("clusters-total")).size() == 1);
      browser.get("http://127.0.0.1:" + port + "/ui/#/rollouts/" + id);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> "Paused".equals(text(browser, "rollout-state")));
      assertThat(browser.findElements(By.cssSelector("button[data-cmd]"))).isEmpty();

      // resumed through the API: the page follows the event stream to the end without a reload
      RolloutIT.call(port, "POST", "/rollouts/" + id + "/resume", null);
      await()
          .atMost(Duration.ofSeconds(40))
          .until(() -> "Succeeded".equals(text(browser, "rollout-state")));
      assertThat(text(browser, "count-succeeded")).isEqualTo("6");
      Object events =
          ((JavascriptExecutor) browser).executeScript("return window.olmsteadEvents || 0");
      assertThat(((Number) events).longValue()).isPositive();
      Path shot = Path.of("target", "dashboard-rollout.png");
      Files.createDirectories(shot.getParent());
      Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      assertThat(shot).isNotEmptyFile();
    } finally {
      browser.quit();
      agents.close();
      cp.close();
      vertx.close();
    }
  }

  /**
   * Reads an element's text in one script call: the page re-renders on every event, so held
   * elements go stale.
   */
  private static String text(WebDriver browser, String id) {
    Object text =
        ((JavascriptExecutor) browser)
            .executeScript(
                "const e = document.getElementById(arguments[0]); return e ? e.textContent.trim() : null;",
                id);
    return (String) text;
  }
}
