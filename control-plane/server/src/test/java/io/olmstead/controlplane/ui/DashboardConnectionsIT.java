package io.olmstead.controlplane.ui;

import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.testsupport.Browsers;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The dashboard's event stream does not outlive its page: Chromium keeps a page left for another
 * one in its back/forward cache, with its open fetches, for up to 60 s, and allows six HTTP/1.1
 * connections a host. A page that kept its stream open there would leave the next loads waiting for
 * a connection; the dashboard closes the stream on {@code pagehide}, so the tenth page loaded in a
 * row draws its data as promptly as the first.
 */
class DashboardConnectionsIT {
  private static final int LOADS = 10;
  private static final String DRAWN =
      "return performance.getEntriesByName('olmstead:rendered').length > 0";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static TestControlPlane cp;
  private static ChromeDriver browser;

  @BeforeAll
  static void start() {
    browser = Browsers.headless();
    cp = TestControlPlane.start(DashboardConnectionsIT.class);
    // once: the token stays in the tab's session storage for every test
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
  void aPageLeftForAnotherOneClosesItsEventStream() throws Exception {
    browser.get(cp.baseUrl() + "/ui/#/");
    await().atMost(Duration.ofSeconds(30)).until(() -> openStreams() >= 1);
    // left for another page, it goes to the back/forward cache: kept there with an open fetch, its
    // stream would stay open for 60 s
    browser.get("about:blank");
    await().atMost(Duration.ofSeconds(30)).until(() -> openStreams() == 0);
  }

  /** The server's count of open event streams ({@code olmstead_event_streams}). */
  private static long openStreams() throws Exception {
    String metrics =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return metrics
        .lines()
        .filter(line -> line.startsWith("olmstead_event_streams "))
        .mapToLong(line -> (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1)))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void pagesLeftInARowDoNotHoldTheConnectionsTheNextPageNeeds() {
    // (the Fleet page of an empty fleet: what is measured is whether its requests get a connection)
    for (int i = 0; i < LOADS; i++) {
      browser.get("about:blank");
      browser.get(cp.baseUrl() + "/ui/#/");
      // a page draws in about a second here; one waiting for a page in the back/forward cache to
      // be evicted waits about 60 s
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Boolean.TRUE.equals(browser.executeScript(DRAWN)));
    }
  }
}
