package io.olmstead.controlplane.cli.client;

import static io.olmstead.controlplane.cli.client.CliRun.oneLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that answers without end (broken, or hostile) cannot make the CLI read more than {@link
 * Api#MAX_ANSWER_BYTES}: it stops there with one line naming the limit, whether the body is
 * streamed (chunked, a JSON list that never closes) or declares its huge length up front.
 */
class AnswerLimitTest {
  // what the test server sends at most: 4 times the limit, so a CLI without a bound reads it all
  // and then fails
  // differently (incomplete JSON), not by the limit
  private static final long SERVER_CAP = 4L * Api.MAX_ANSWER_BYTES;
  private final AtomicLong sent = new AtomicLong();
  private HttpServer server;
  private final java.util.concurrent.ExecutorService handlers =
      java.util.concurrent.Executors.newFixedThreadPool(2);
  @TempDir Path home;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/api/v1/clusters",
        exchange -> {
          boolean declared =
              exchange.getRequestURI().getQuery() != null
                  && exchange.getRequestURI().getQuery().contains("selector=declared");
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, declared ? SERVER_CAP : 0);
          byte[] chunk = new byte[64 * 1024];
          Arrays.fill(chunk, (byte) ' ');
          try (OutputStream out = exchange.getResponseBody()) {
            byte[] start = "{\"items\":[".getBytes(StandardCharsets.UTF_8);
            out.write(start);
            sent.addAndGet(start.length);
            while (sent.get() < SERVER_CAP) {
              int n = (int) Math.min(chunk.length, SERVER_CAP - sent.get());
              out.write(chunk, 0, n);
              sent.addAndGet(n);
            }
          } catch (IOException e) {
            // the client hung up: what it would not read is not sent
          }
        });
    // headers at once, then a byte every 200 ms (for at most 20 s): a body that never ends in time
    server.createContext(
        "/api/v1/subscriptions",
        exchange -> {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write('{');
            out.flush();
            for (int i = 0; i < 100; i++) {
              Thread.sleep(200);
              out.write(' ');
              out.flush();
            }
            out.write('}');
          } catch (IOException | InterruptedException e) {
            // the client hung up
          }
        });
    server.setExecutor(handlers);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    handlers.shutdownNow();
  }

  @Test
  void aStreamedAnswerBeyondTheLimitStopsTheCliWithOneLineNamingIt() {
    oneLine(
        cli("get", "clusters"),
        ExitCodes.ERROR,
        "GET /clusters",
        "answered more than 16 MiB",
        "the most the CLI reads of an answer");
    assertThat(sent.get())
        .as("bytes the server got out before the CLI hung up")
        .isLessThan(SERVER_CAP - Api.MAX_ANSWER_BYTES);
  }

  @Test
  void anAnswerDeclaringALengthBeyondTheLimitIsRefusedBeforeItsBodyIsRead() {
    oneLine(cli("get", "clusters", "-l", "declared"), ExitCodes.ERROR, "answered more than 16 MiB");
    assertThat(sent.get()).isLessThan(SERVER_CAP - Api.MAX_ANSWER_BYTES);
  }

  @Test
  void aBodyDrippedSlowerThanTheRequestTimeoutStopsTheCliWithOneLineNamingTheSetting() {
    // the answer names the 2 s setting it was cut at: the drip itself would go on far longer
    oneLine(
        cli(Map.of(Api.TIMEOUT_SETTING, "2"), "get", "subscriptions"),
        ExitCodes.ERROR,
        "GET /subscriptions",
        "sent its answer too slowly",
        "within 2 s",
        Api.TIMEOUT_SETTING);
  }

  @Test
  void aRequestTimeoutThatIsNotWholeSecondsInRangeIsAUsageLineNamingTheSetting() {
    for (String bad : new String[] {"0", "3601", "2s", "-5"}) {
      oneLine(
          cli(Map.of(Api.TIMEOUT_SETTING, bad), "get", "clusters"),
          ExitCodes.USAGE,
          Api.TIMEOUT_SETTING,
          "whole seconds from 1 to 3600",
          bad);
    }
  }

  private CliRun cli(String... args) {
    return cli(Map.of(), args);
  }

  private CliRun cli(Map<String, String> extra, String... args) {
    Map<String, String> env = new java.util.HashMap<>(extra);
    env.putAll(
        Map.of(
            "XDG_CONFIG_HOME",
            home.toString(),
            "OLMSTEAD_URL",
            "http://127.0.0.1:" + server.getAddress().getPort(),
            "OLMSTEAD_TOKEN",
            "olm_answer-limit-test-0000000000"));
    return CliRun.run(env, "", args);
  }
}
