package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.Browsers;
import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The rollout preview panel ({@code #/preview/gf/5.24.0}) in headless Chromium over the
 * grafana-operator fixture of {@link RolloutImpactIT}: the permission grants gained and lost, the
 * new CRD, the affected custom resources, the no risky edge (no failure on record), and one row per
 * cluster.
 */
class ImpactPreviewPageIT {
  private static TestControlPlane cp;
  private static ChromeDriver browser;

  @BeforeAll
  static void start() throws Exception {
    byte[] catalog = Files.readAllBytes(SharedFolder.require(RolloutImpactIT.GRAFANA));
    browser = Browsers.headless();
    cp = TestControlPlane.start(ImpactPreviewPageIT.class);
    RolloutImpactIT.seed(cp, new ApiClient(cp), catalog);
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

  @SuppressWarnings("unchecked")
  private static List<String> texts(String css) {
    return new ArrayList<>(
        (List<String>)
            ((JavascriptExecutor) browser)
                .executeScript(
                    "return Array.from("
                        + "document.querySelectorAll(arguments[0])).map(e => e.textContent.trim())",
                    css));
  }

  @Test
  void thePanelShowsTheGrantsTheCrdsTheResourcesAndEachCluster() {
    browser.get(cp.baseUrl() + "/ui/#/preview/gf/5.24.0");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> texts("[data-test=impact-cluster]").size() == 2);
    assertThat(texts("[data-test=grant][data-sign='+']"))
        .containsExactly("+ cluster events.k8s.io/events: create,patch");
    assertThat(texts("[data-test=grant][data-sign='-']"))
        .contains(
            "- cluster coordination.k8s.io/leases: create,delete,get,list,patch,update,watch",
            "- namespace configmaps: create,delete,get,list,patch,update,watch");
    assertThat(texts("[data-test=crd][data-sign='+']"))
        .containsExactly("+ grafanamanifests.grafana.integreatly.org (GrafanaManifest) v1beta1");
    assertThat(texts("[data-test=crd][data-sign='~']")).hasSize(12);
    assertThat(texts("#impact-resources"))
        .singleElement()
        .asString()
        .startsWith("42 on 1 clusters");
    assertThat(texts("#impact-risky")).containsExactly("0 clusters at risk");
    assertThat(texts("[data-test=impact-cluster][data-cluster=gf-1] [data-test=crs]"))
        .containsExactly("42");
  }
}
