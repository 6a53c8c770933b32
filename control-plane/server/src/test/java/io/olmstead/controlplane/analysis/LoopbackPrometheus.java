package io.olmstead.controlplane.analysis;

import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Debian's real {@code prometheus} server on 127.0.0.1, scraping every second a tiny exporter the
 * test controls ({@link #set} a gauge per cluster, e.g. {@code canary_errors{cluster="sim-0001"}}).
 * {@link #available()} says whether the binary is installed; tests skip themselves without it.
 */
public final class LoopbackPrometheus implements AutoCloseable {
  public static final Path BINARY = Path.of("/usr/bin/prometheus");
  private final Map<String, Double> gauges = new ConcurrentHashMap<>();
  private final Path dir;
  private final HttpServer exporter;
  private final Process process;
  private final URI url;

  private LoopbackPrometheus(Vertx vertx) throws Exception {
    exporter =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  StringBuilder text = new StringBuilder("# TYPE canary_errors gauge\n");
                  new TreeMap<>(gauges)
                      .forEach(
                          (cluster, v) ->
                              text.append("canary_errors{cluster=\"")
                                  .append(cluster)
                                  .append("\"} ")
                                  .append(v)
                                  .append('\n'));
                  req.response()
                      .putHeader("Content-Type", "text/plain; version=0.0.4")
                      .end(text.toString());
                })
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    dir = Files.createTempDirectory("olmstead-prometheus");
    int port = freePort();
    Files.writeString(
        dir.resolve("prometheus.yml"),
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
            + "scrape_configs:\n  - job_name: canary\n    scrape_interval: 1s\n    static_configs:\n"
            + "      - targets: ['127.0.0.1:"
            + exporter.actualPort()
            + "']\n");
    process =
        new ProcessBuilder(
                BINARY.toString(),
                "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    url = URI.create("http://127.0.0.1:" + port);
    HttpClient http = HttpClient.newHttpClient();
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(
            () ->
                http.send(
                            HttpRequest.newBuilder(url.resolve("/-/ready")).build(),
                            HttpResponse.BodyHandlers.discarding())
                        .statusCode()
                    == 200);
  }

  /** Whether {@code /usr/bin/prometheus} is installed ({@code apt-get install -y prometheus}). */
  public static boolean available() {
    return Files.isExecutable(BINARY);
  }

  public static LoopbackPrometheus start(Vertx vertx) throws Exception {
    return new LoopbackPrometheus(vertx);
  }

  /** The server's base URL, for {@code OLMSTEAD_PROMETHEUS_URL}. */
  public URI url() {
    return url;
  }

  /** Exports {@code canary_errors{cluster="<cluster>"} value} from the next scrape on. */
  public void set(String cluster, double value) {
    gauges.put(cluster, value);
  }

  /** Whether Prometheus has scraped {@code value} for {@code cluster} already. */
  public boolean sees(String cluster, double value) throws IOException, InterruptedException {
    String q =
        URLEncoder.encode(
            "canary_errors{cluster=\"" + cluster + "\"} == " + value, StandardCharsets.UTF_8);
    String body =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(url.resolve("/api/v1/query?query=" + q)).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return body.contains("\"cluster\":\"" + cluster + "\"");
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    exporter.close();
    try (var files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
