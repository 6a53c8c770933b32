package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The alert rules ship twice (a PrometheusRule for the Prometheus Operator, a plain rules file for
 * a hand-configured Prometheus): both hold the same groups, pass {@code promtool check rules}, and
 * every alert fires (and stays quiet) as its {@code promtool test rules} case says (every {@code
 * *.test.yaml} beside them). The monitoring objects land in the control plane's namespace and
 * select its Service.
 */
class PrometheusRulesTest {
  private static final Path DIR = Paths.get("..", "..", "deploy", "prometheus");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void thePrometheusRuleAndThePlainRulesFileHoldTheSameGroups() throws IOException {
    JsonNode operator = YAML.readTree(DIR.resolve("olmstead-rules.yaml").toFile());
    JsonNode plain = YAML.readTree(DIR.resolve("olmstead.rules.yaml").toFile());
    assertThat(operator.path("kind").asText()).isEqualTo("PrometheusRule");
    assertThat(operator.path("metadata").has("namespace"))
        .as("the namespace comes from the kustomization")
        .isFalse();
    assertThat(plain.path("groups").size()).isPositive();
    assertThat(operator.path("spec").path("groups")).isEqualTo(plain.path("groups"));
  }

  @Test
  void everyAlertHasAPromtoolTestCase() throws IOException {
    StringBuilder tests = new StringBuilder();
    for (Path file : testFiles()) {
      tests.append(Files.readString(file));
    }
    List<String> alerts = new ArrayList<>();
    YAML.readTree(DIR.resolve("olmstead.rules.yaml").toFile())
        .path("groups")
        .forEach(
            g ->
                g.path("rules")
                    .forEach(
                        r -> {
                          if (r.has("alert")) {
                            alerts.add(r.path("alert").asText());
                          }
                        }));
    assertThat(alerts)
        .isNotEmpty()
        .allSatisfy(alert -> assertThat(tests.toString()).contains("alertname: " + alert));
  }

  @Test
  void everyAlertIsDocumentedInTheObservabilityManual() throws IOException {
    String manual = Files.readString(Paths.get("..", "..", "docs", "observability.md"));
    YAML.readTree(DIR.resolve("olmstead.rules.yaml").toFile())
        .path("groups")
        .forEach(
            g ->
                g.path("rules")
                    .forEach(
                        r -> {
                          if (r.has("alert")) {
                            assertThat(manual)
                                .as("docs/observability.md")
                                .contains("`" + r.path("alert").asText() + "`");
                          }
                        }));
  }

  @Test
  void promtoolChecksTheRulesAndEveryAlertsUnitTestPasses() throws Exception {
    assumeTrue(
        onPath("promtool"),
        "skipped: promtool is not installed (Debian package prometheus; .ci/run installs it)");
    assertThat(run(DIR, "promtool", "check", "rules", "olmstead.rules.yaml")).contains("SUCCESS");
    List<Path> tests = testFiles();
    assertThat(tests)
        .extracting(p -> p.getFileName().toString())
        .contains(
            "olmstead-rules.test.yaml",
            "olmstead-inventory-rules.test.yaml",
            "olmstead-sources-rules.test.yaml");
    for (Path test : tests) {
      assertThat(run(DIR, "promtool", "test", "rules", test.getFileName().toString()))
          .contains("SUCCESS");
    }
  }

  @Test
  void theMonitoringObjectsLiveInTheControlPlanesNamespaceAndSelectItsService() throws IOException {
    JsonNode monitoring = YAML.readTree(DIR.resolve("kustomization.yaml").toFile());
    JsonNode controlPlane =
        YAML.readTree(DIR.resolveSibling("control-plane").resolve("kustomization.yaml").toFile());
    assertThat(monitoring.path("namespace").asText())
        .isNotBlank()
        .isEqualTo(controlPlane.path("namespace").asText());
    JsonNode monitor = YAML.readTree(DIR.resolve("servicemonitor.yaml").toFile());
    JsonNode service =
        YAML.readTree(DIR.resolveSibling("control-plane").resolve("service.yaml").toFile());
    monitor
        .path("spec")
        .path("selector")
        .path("matchLabels")
        .fields()
        .forEachRemaining(
            label ->
                assertThat(service.path("metadata").path("labels").path(label.getKey()).asText())
                    .as("Service label " + label.getKey())
                    .isEqualTo(label.getValue().asText()));
    List<String> ports = new ArrayList<>();
    service.path("spec").path("ports").forEach(p -> ports.add(p.path("name").asText()));
    monitor
        .path("spec")
        .path("endpoints")
        .forEach(
            e -> {
              assertThat(ports).contains(e.path("port").asText());
              assertThat(e.path("path").asText()).isEqualTo("/metrics");
            });
  }

  /** Every promtool unit test file beside the rules ({@code *.test.yaml}), in name order. */
  static List<Path> testFiles() throws IOException {
    try (Stream<Path> files = Files.list(DIR)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".test.yaml")).sorted().toList();
    }
  }

  static boolean onPath(String binary) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (Files.isExecutable(Paths.get(dir, binary))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs a command in {@code dir} (bounded to 60 s) and returns its output; fails when it exits
   * non-zero.
   */
  static String run(Path dir, String... command) throws Exception {
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(exited).as(String.join(" ", command) + " finished within 60 s").isTrue();
    assertThat(process.exitValue()).as(String.join(" ", command) + ":\n" + output).isZero();
    return output;
  }
}
