package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.testsupport.ChildJvm;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dev mode's {@code /readyz} is 200 only once the demo catalog is loaded (the packaged jar in its
 * own process, polled from the moment it starts): before that it says 503 naming the catalog, so a
 * script that waits for ready can use the catalog at once.
 */
class DevReadinessIT {
  private static final Path JAR = Path.of("target", "olmstead-dev.jar");
  private static final String TOKEN = "olm_admin_dev_readiness_test_0123456789";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void devReadyzSays503NamingTheDemoCatalogUntilItIsLoadedThen200WithTheCatalogThere(
      @TempDir Path tmp) throws Exception {
    assumeTrue(
        Files.isRegularFile(JAR),
        "skipped: " + JAR.toAbsolutePath() + " is not built (run ./mvnw verify)");
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port;
    Path log = tmp.resolve("dev.log");
    Process dev =
        new ProcessBuilder(
                concat(
                    ChildJvm.command("512m"),
                    "-jar",
                    JAR.toString(),
                    "dev",
                    "--fresh",
                    "--port",
                    String.valueOf(port),
                    "--data-dir",
                    tmp.resolve("data").toString(),
                    "--admin-token",
                    TOKEN))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      Set<String> notReady = new LinkedHashSet<>();
      int catalogAtFirstReady = -1;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (System.nanoTime() < deadline && dev.isAlive()) {
        HttpResponse<String> ready = get(url + "/readyz", null);
        if (ready != null && ready.statusCode() == 200) {
          catalogAtFirstReady = get(url + "/api/v1/catalogs/demo", TOKEN).statusCode();
          break;
        }
        if (ready != null) {
          notReady.add(ready.statusCode() + " " + ready.body());
        }
        Thread.sleep(5);
      }
      assertThat(catalogAtFirstReady)
          .as("the demo catalog when /readyz first says 200 (log:\n%s)", Files.readString(log))
          .isEqualTo(200);
      assertThat(notReady)
          .as("what /readyz said before")
          .isNotEmpty()
          .allSatisfy(
              answer ->
                  assertThat(answer)
                      .startsWith("503 ")
                      .contains("\"reason\":\"dev: demo catalog 'demo' not loaded yet\""));
    } finally {
      dev.destroy();
      if (!dev.waitFor(60, TimeUnit.SECONDS)) {
        dev.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** The answer, or null while nothing listens yet. */
  private static HttpResponse<String> get(String url, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    try {
      return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    }
  }

  private static List<String> concat(List<String> command, String... more) {
    List<String> all = new ArrayList<>(command);
    all.addAll(List.of(more));
    return all;
  }
}
