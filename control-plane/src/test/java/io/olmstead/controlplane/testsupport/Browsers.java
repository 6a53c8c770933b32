package io.olmstead.controlplane.testsupport;

import java.io.File;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** Headless Chromium for the dashboard's ITs (Debian's chromium and chromium-driver); skipped, saying why, without. */
public final class Browsers {
  public static final String CHROMIUM = "/usr/bin/chromium";
  public static final String DRIVER = "/usr/bin/chromedriver";

  private Browsers() {
  }

  /** A new headless browser; the test is skipped (with the reason) where Chromium is not installed. */
  public static ChromeDriver headless() {
    Assumptions.assumeTrue(new File(CHROMIUM).canExecute() && new File(DRIVER).canExecute(),
        "skipped: headless Chromium needs " + CHROMIUM + " and " + DRIVER + " (Debian chromium, chromium-driver)");
    return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(new File(DRIVER))
        .usingAnyFreePort().build(), new ChromeOptions().setBinary(CHROMIUM)
        .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"));
  }

  /** Opens the dashboard and signs in with {@code token} through its form. */
  public static void signIn(ChromeDriver browser, String baseUrl, String token) {
    browser.get(baseUrl + "/ui/");
    browser.findElement(By.id("token")).sendKeys(token);
    browser.findElement(By.cssSelector("#login-form button")).click();
  }
}
