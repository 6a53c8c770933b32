package io.olmstead.controlplane.testsupport;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for the dashboard's ITs (Debian's chromium and chromium-driver); skipped,
 * saying why, without.
 */
public final class Browsers {
  public static final String CHROMIUM = "/usr/bin/chromium";
  public static final String DRIVER = "/usr/bin/chromedriver";

  private Browsers() {}

  /**
   * A new headless browser; the test is skipped (with the reason) where Chromium is not installed.
   */
  public static ChromeDriver headless() {
    Assumptions.assumeTrue(
        new File(CHROMIUM).canExecute() && new File(DRIVER).canExecute(),
        "skipped: headless Chromium needs "
            + CHROMIUM
            + " and "
            + DRIVER
            + " (Debian chromium, chromium-driver)");
    return new ChromeDriver(
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(DRIVER))
            .usingAnyFreePort()
            .build(),
        new ChromeOptions()
            .setBinary(CHROMIUM)
            .addArguments(
                "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"));
  }

  /**
   * Clicks the element {@code css} names. Pages re-render on live events, so an element found a
   * moment ago may be replaced before the click lands; a stale element was never clicked, so it is
   * found again (for up to 10 s).
   */
  public static void click(ChromeDriver browser, String css) {
    Instant until = Instant.now().plus(Duration.ofSeconds(10));
    while (true) {
      try {
        browser.findElement(By.cssSelector(css)).click();
        return;
      } catch (StaleElementReferenceException e) {
        if (Instant.now().isAfter(until)) {
          throw e;
        }
      }
    }
  }

  /** Opens the dashboard and signs in with {@code token} through its form. */
  public static void signIn(ChromeDriver browser, String baseUrl, String token) {
    browser.get(baseUrl + "/ui/");
    browser.findElement(By.id("token")).sendKeys(token);
    browser.findElement(By.cssSelector("#login-form button")).click();
  }
}
