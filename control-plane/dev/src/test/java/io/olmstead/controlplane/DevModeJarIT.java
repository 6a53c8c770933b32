package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.testsupport.ChildJvm;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command as users run it: the packaged jar's {@code dev} mode in its own
 * process (failsafe runs after {@code package}). It becomes ready, prints the URL and a generated
 * token once, keeps its data across a restart, {@code --fresh} wipes it, and nothing it prints is a
 * stack trace.
 */
class DevModeJarIT {
  private static final Path JAR = Path.of("target", "olmstead-dev.jar");
  private static final Pattern READY =
      Pattern.compile("ready at (http://127\\.0\\.0\\.1:(\\d+)) .*Bearer ([^']+)'");
  private static final Pattern LINE =
      Pattern.compile(
          "(\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (INFO|WARN|ERROR) .*)"
              + "|(Olmstead dev control plane ready at .*)");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * A running dev control plane: its process, URL, the token its ready line shows, and everything
   * it printed.
   */
  private record Dev(Process process, Path log, String url, String shownToken) {
    String output() throws IOException {
      return Files.readString(log);
    }
  }

  @Test
  void devModeIsReadyPrintsItsTokenOnceKeepsDataAcrossRestartsAndFreshWipesIt(@TempDir Path tmp)
      throws Exception {
    assumeTrue(
        Files.isRegularFile(JAR),
        "skipped: " + JAR.toAbsolutePath() + " is not built (run ./mvnw verify)");
    Path data = tmp.resolve("data");
    List<String> outputs = new ArrayList<>();

    Dev first = start(tmp, data, 1, "--fresh");
    String token = first.shownToken();
    assertThat(token).doesNotStartWith("<");
    assertThat(get(first.url() + "/readyz", null).statusCode()).isEqualTo(200);
    assertThat(call("PUT", first.url() + "/api/v1/catalogs/kept", token, "{}").statusCode())
        .isEqualTo(201);
    outputs.add(stop(first));

    Dev second = start(tmp, data, 2);
    assertThat(second.shownToken())
        .as("the generated token is printed at first start only")
        .startsWith("<the admin token printed at first start");
    assertThat(second.output()).doesNotContain(token);
    assertThat(get(second.url() + "/api/v1/catalogs/kept", token).statusCode()).isEqualTo(200);
    outputs.add(stop(second));

    Dev third = start(tmp, data, 3, "--fresh");
    assertThat(third.shownToken()).doesNotStartWith("<").isNotEqualTo(token);
    assertThat(get(third.url() + "/api/v1/catalogs/kept", third.shownToken()).statusCode())
        .isEqualTo(404);
    assertThat(get(third.url() + "/api/v1/catalogs/kept", token).statusCode()).isEqualTo(401);
    outputs.add(stop(third));

    // log lines may name an exception (a lost connection while the database stops is a warning); no
    // stack trace,
    // and nothing printed outside the logger and the ready line
    for (String output : outputs) {
      assertThat(output).doesNotContain("\tat ");
      assertThat(output.lines()).allSatisfy(line -> assertThat(line).matches(LINE));
    }
  }

  @Test
  void aGivenAdminTokenIsNeverPrintedAndASecondDevOnTheSameDataDirIsRefused(@TempDir Path tmp)
      throws Exception {
    assumeTrue(
        Files.isRegularFile(JAR),
        "skipped: " + JAR.toAbsolutePath() + " is not built (run ./mvnw verify)");
    Path data = tmp.resolve("data");
    String given = "olm_admin_given_by_the_operator_0123456789";
    Dev first = start(tmp, data, 1, "--fresh", "--admin-token", given);
    assertThat(first.shownToken()).isEqualTo("<the token given with --admin-token>");
    assertThat(first.output()).doesNotContain(given);
    assertThat(get(first.url() + "/api/v1/catalogs", given).statusCode()).isEqualTo(200);

    // a second dev (another process) on the same directory, even with --fresh: refused, nothing
    // wiped
    Path secondLog = tmp.resolve("second.log");
    Process second =
        new ProcessBuilder(
                concat(
                    ChildJvm.command("256m"),
                    "-jar",
                    JAR.toString(),
                    "dev",
                    "--port",
                    "0",
                    "--fresh",
                    "--data-dir",
                    data.toString()))
            .redirectErrorStream(true)
            .redirectOutput(secondLog.toFile())
            .start();
    assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(second.exitValue()).isEqualTo(1);
    assertThat(Files.readString(secondLog))
        .isEqualTo(
            "olmstead: data directory "
                + data
                + " is in use by another "
                + "'dev' (pid "
                + first.process().pid()
                + "); stop it first or choose another --data-dir\n");
    assertThat(get(first.url() + "/api/v1/catalogs", given).statusCode()).isEqualTo(200);
    stop(first);
  }

  private static Dev start(Path tmp, Path data, int run, String... extra) throws Exception {
    Path log = tmp.resolve("dev-" + run + ".log");
    List<String> command = new ArrayList<>(ChildJvm.command("512m"));
    command.addAll(
        List.of("-jar", JAR.toString(), "dev", "--port", "0", "--data-dir", data.toString()));
    command.addAll(List.of(extra));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline && process.isAlive()) {
      Matcher m = READY.matcher(Files.readString(log));
      if (m.find()) {
        return new Dev(process, log, m.group(1), m.group(3));
      }
      Thread.sleep(100);
    }
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    throw new AssertionError(
        "dev mode run " + run + " did not print its ready line:\n" + Files.readString(log));
  }

  /** Stops the process as a terminal's Ctrl-C or a pod's SIGTERM would; returns what it printed. */
  private static String stop(Dev dev) throws Exception {
    dev.process().destroy();
    boolean exited = dev.process().waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      dev.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    assertThat(exited).as("dev mode stops within 60 s of SIGTERM:\n" + dev.output()).isTrue();
    // 0, not 143: SIGTERM is caught and the control plane stops before the embedded database
    // (shutdown hooks run
    // concurrently, and the database's own hook used to end connections the control plane still
    // held)
    assertThat(dev.process().exitValue())
        .as("exit status after SIGTERM:\n" + dev.output())
        .isZero();
    return dev.output();
  }

  private static HttpResponse<String> get(String url, String token) throws Exception {
    return call("GET", url, token, null);
  }

  private static HttpResponse<String> call(String method, String url, String token, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return HTTP.send(
        b.method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> concat(List<String> command, String... more) {
    List<String> all = new ArrayList<>(command);
    all.addAll(List.of(more));
    return all;
  }
}
