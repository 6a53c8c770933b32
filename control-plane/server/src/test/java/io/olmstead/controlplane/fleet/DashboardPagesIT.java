package io.olmstead.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.Browsers;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;

/**
 * The Fleet, Cluster and Approvals pages in headless Chromium over the fixture of {@link
 * FleetSummaryIT}: the bars are Chart.js charts of the server's counts with failures first, the
 * selector filters, the cluster page shows what the cluster runs, and approving from the Approvals
 * page writes the approval (viewers get no buttons).
 */
class DashboardPagesIT {
  static final String CHROMIUM = "/usr/bin/chromium";
  static final String DRIVER = "/usr/bin/chromedriver";
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ChromeDriver browser;

  @BeforeAll
  static void start() {
    Assumptions.assumeTrue(
        new File(CHROMIUM).canExecute() && new File(DRIVER).canExecute(),
        "skipped: headless Chromium needs "
            + CHROMIUM
            + " and "
            + DRIVER
            + " (Debian chromium, chromium-driver)");
    cp = TestControlPlane.start(DashboardPagesIT.class);
    FleetSummaryIT.fixture(cp);
    // a subscription without reports that sorts before etcd: etcd's failures still put it first
    assertThat(
            new ApiClient(cp)
                .json(
                    "PUT",
                    "/api/v1/subscriptions/alpha",
                    ADMIN,
                    new JsonObject()
                        .put("catalog", "community")
                        .put("package", "etcd")
                        .put("channel", "stable")
                        .put("namespace", "alpha")
                        .put("placement", new JsonObject().put("selector", "env=dev"))
                        .put("version", new JsonObject().put("follow", "channel"))
                        .put("approval", "Manual"))
                .status())
        .isEqualTo(201);
    // etcd-backup came in as etcd's dependency on eu-2
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO cluster_inventory (cluster, operators) VALUES ('eu-2', "
            + "'[{\"subscription\":\"etcd\",\"namespace\":\"etcd\",\"package\":\"etcd\",\"version\":\"0.9.2\"},"
            + "{\"subscription\":\"etcd\",\"namespace\":\"etcd\",\"package\":\"etcd-backup\",\"version\":\"1.0.0\","
            + "\"dependencyOf\":\"etcd\"}]')");
    // an OpenShift version (as a hosted cluster's label) gives eu-2 an upgrade readiness to show
    TestDatabase.execute(
        cp.database(),
        "UPDATE clusters SET labels = labels || "
            + "'{\"hypershift.olmstead.io/version\":\"4.16.0\"}' WHERE name = 'eu-2'");
    browser = browser();
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

  static ChromeDriver browser() {
    ChromeOptions options =
        new ChromeOptions()
            .setBinary(CHROMIUM)
            .addArguments(
                "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000");
    return new ChromeDriver(
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(DRIVER))
            .usingAnyFreePort()
            .build(),
        options);
  }

  static void login(ChromeDriver browser, int port, String token) {
    browser.get("http://127.0.0.1:" + port + "/ui/");
    ((JavascriptExecutor) browser).executeScript("sessionStorage.clear()");
    browser.navigate().refresh();
    browser.findElement(By.id("token")).sendKeys(token);
    Browsers.click(browser, "#login-form button");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                browser.executeScript(
                        "return document.getElementById("
                            + "'clusters-total') && document.getElementById('clusters-total').textContent")
                    != null);
  }

  @Test
  @SuppressWarnings("unchecked")
  void fleetBarsAreChartsOfTheServersCountsWithTheLatestFailureFirstAndTheSelectorFilters()
      throws Exception {
    login(browser, cp.port(), ADMIN);
    assertThat(js("return document.getElementById('clusters-total').textContent")).isEqualTo("5");
    assertThat(js("return document.querySelector('#failures [data-test=failure]').dataset.cluster"))
        .isEqualTo("us-1");
    assertThat(
            js(
                "return document.querySelector('#failures [data-test=failure] [data-test=reason]').textContent"))
        .isEqualTo("ImagePullBackOff");
    // a subscription with failures comes first even though "alpha" sorts before "etcd"
    assertThat(
            js(
                "return document.querySelector('#subscriptions [data-test=subscription]').dataset.subscription"))
        .isEqualTo("etcd");
    // the bars are a Chart.js chart of version x phase, one dataset per phase coloured by it,
    // Failed first
    Object chart =
        ((JavascriptExecutor) browser)
            .executeScript(
                "const c = Chart.getChart(document.querySelector("
                    + "'canvas[data-subscription=etcd]')); return {labels: c.data.labels, datasets: c.data.datasets.map("
                    + "(d) => ({label: d.label, data: d.data, colour: d.backgroundColor}))};");
    JsonObject bars = new JsonObject((Map<String, Object>) chart);
    assertThat(bars.getJsonArray("labels").getList()).containsExactly("0.9.2", "0.9.4");
    JsonObject failed = bars.getJsonArray("datasets").getJsonObject(0);
    assertThat(failed.getString("label")).isEqualTo("Failed");
    assertThat(failed.getJsonArray("data").getList()).containsExactly(2L, 0L);
    // the palette's colour for failed, as on every page
    assertThat(failed.getString("colour"))
        .isEqualTo(
            js(
                "return getComputedStyle(document.documentElement)"
                    + ".getPropertyValue('--colour-failed').trim()"))
        .isEqualTo("#e5484d");
    assertThat(
            js("return document.querySelectorAll('#phase-legend [data-test=legend-item]').length"))
        .isNotEqualTo(0L);
    assertThat(
            js(
                "return document.querySelector('#by-label tr[data-value=eu] [data-test=disconnected]').textContent"))
        .isEqualTo("1");

    // clicking the Failed part of the 0.9.2 bar lists those clusters (the server filters them)
    Map<String, Object> at =
        (Map<String, Object>)
            ((JavascriptExecutor) browser)
                .executeScript(
                    "const canvas = "
                        + "document.querySelector('canvas[data-subscription=etcd]'); const c = Chart.getChart(canvas); "
                        + "const bar = c.getDatasetMeta(0).data[0]; const r = canvas.getBoundingClientRect(); "
                        + "return {dx: Math.round((bar.x + bar.base) / 2 - r.width / 2), dy: Math.round(bar.y - r.height / 2)};");
    new Actions(browser)
        .moveToElement(
            browser.findElement(By.cssSelector("canvas[data-subscription=etcd]")),
            ((Number) at.get("dx")).intValue(),
            ((Number) at.get("dy")).intValue())
        .click()
        .perform();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> js("return document.getElementById('cluster-list')") != null);
    assertThat((String) js("return location.hash"))
        .contains("subscription=etcd")
        .contains("phase=Failed")
        .contains("version=0.9.2");
    assertThat(
            js(
                "return [...document.querySelectorAll('#cluster-list tr[data-cluster]')].map((r) => "
                    + "r.dataset.cluster)"))
        .isEqualTo(List.of("eu-2", "us-1"));
    browser.get("http://127.0.0.1:" + cp.port() + "/ui/#/");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> js("return document.getElementById('selector')") != null);

    browser.findElement(By.id("selector")).sendKeys("region=eu");
    Browsers.click(browser, "#fleet-filter button");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> "2".equals(js("return document.getElementById('clusters-total').textContent")));
    assertThat(
            js(
                "return [...document.querySelectorAll('#failures [data-test=failure]')].map((r) => r.dataset.cluster)"))
        .isEqualTo(List.of("eu-2"));
    Path shot = Path.of("target", "dashboard-fleet.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

    // click through from the failure to the cluster
    Browsers.click(browser, "#failures [data-test=failure] a");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                "eu-2"
                    .equals(
                        js(
                            "const e = document.getElementById('cluster-name'); return e && e.textContent")));
    assertThat(js("return document.getElementById('cluster-status').textContent"))
        .isEqualTo("disconnected");
    assertThat(
            js(
                "return document.querySelector('#cluster-subscriptions tr[data-subscription=etcd] [data-test=reason]')"
                    + ".textContent"))
        .isEqualTo("InstallCheckFailed");
    assertThat((String) js("return document.querySelector('#cluster-subscriptions').textContent"))
        .contains("Installed=False");
    assertThat(
            js(
                "return document.querySelector('#cluster-inventory tr[data-package=etcd-backup] [data-test=dependency-of]')"
                    + ".textContent"))
        .isEqualTo("etcd");
    assertThat((String) js("return document.getElementById('cluster-labels').textContent"))
        .contains("region=eu");
    assertThat((String) js("return document.getElementById('cluster-readiness').textContent"))
        .contains("4.16.0 → 4.17")
        .contains("upgradeable");
  }

  @Test
  void clustersListFollowsTheSubscriptionPhaseFilterServerSide() {
    login(browser, cp.port(), ADMIN);
    browser.get("http://127.0.0.1:" + cp.port() + "/ui/#/clusters?subscription=etcd&phase=Failed");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> js("return document.getElementById('cluster-list')") != null);
    assertThat(
            js(
                "return [...document.querySelectorAll('#cluster-list tr[data-cluster]')].map((r) => "
                    + "r.dataset.cluster)"))
        .isEqualTo(List.of("eu-2", "us-1"));
  }

  @Test
  void approvingFromTheApprovalsPageWritesTheApprovalAndViewersSeeNoButtons() throws Exception {
    login(browser, cp.port(), ADMIN);
    browser.get("http://127.0.0.1:" + cp.port() + "/ui/#/approvals");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> js("return document.querySelectorAll('[data-test=waiting]').length").equals(3L));
    Browsers.click(browser, "[data-test=approve-one][data-cluster=eu-1]");
    await().atMost(Duration.ofSeconds(10)).until(() -> "etcd.v0.9.4".equals(approved("eu-1")));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                "etcd.v0.9.4"
                    .equals(
                        js(
                            "return document.querySelector('[data-test=waiting][data-cluster=eu-1] [data-test=approved]').textContent")));

    // every waiting cluster the selector picks, at once (POST /approvals with the selector)
    browser.get("http://127.0.0.1:" + cp.port() + "/ui/#/approvals?selector=region%3Dus");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> js("return document.querySelectorAll('[data-test=waiting]').length").equals(1L));
    Browsers.click(browser, "[data-test=approve-all][data-bundle='etcd.v0.9.4']");
    await().atMost(Duration.ofSeconds(10)).until(() -> "etcd.v0.9.4".equals(approved("us-1")));
    assertThat(approved("bare-1")).isNull();

    String viewer = new ApiClient(cp).createToken(ADMIN, "approvals-viewer", "viewer", List.of());
    login(browser, cp.port(), viewer);
    browser.get("http://127.0.0.1:" + cp.port() + "/ui/#/approvals");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> js("return document.querySelectorAll('[data-test=waiting]').length").equals(3L));
    assertThat(browser.findElements(By.cssSelector("#view button")))
        .extracting(e -> e.getText())
        .containsExactly("Apply");
  }

  private static String approved(String cluster) throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                cp.database().jdbcUrl(), cp.database().user(), cp.database().password());
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT bundle FROM cluster_approvals WHERE cluster = '"
                        + cluster
                        + "' AND subscription = 'other'")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static Object js(String script) {
    return ((JavascriptExecutor) browser).executeScript(script);
  }
}
