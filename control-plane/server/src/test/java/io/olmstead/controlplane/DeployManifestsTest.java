package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.config.PrometheusSettings;
import io.olmstead.controlplane.db.DatabaseReadiness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes manifests in deploy/ must set only the settings the code reads, on the ports it
 * listens on.
 */
public class DeployManifestsTest {
  private static final Path DEPLOY = Paths.get("..", "..", "deploy");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** Every Kubernetes object in the YAML files under {@code dir}. */
  public static List<JsonNode> manifests(Path dir) throws IOException {
    List<JsonNode> docs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        try (MappingIterator<JsonNode> it =
            YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
          while (it.hasNext()) {
            JsonNode doc = it.next();
            // Prometheus's own files (a plain rules file, promtool's tests) are not Kubernetes
            // objects
            boolean prometheusFile = doc != null && (doc.has("groups") || doc.has("rule_files"));
            if (doc != null && !doc.isNull() && !doc.isEmpty() && !prometheusFile) {
              docs.add(doc);
            }
          }
        }
      }
    }
    return docs;
  }

  static List<JsonNode> containers(List<JsonNode> docs, String kind) {
    List<JsonNode> result = new ArrayList<>();
    docs.stream()
        .filter(d -> kind.equals(d.path("kind").asText()))
        .forEach(
            d ->
                d.path("spec")
                    .path("template")
                    .path("spec")
                    .path("containers")
                    .forEach(result::add));
    return result;
  }

  @Test
  void everyManifestParsesAndNamesItsKind() throws IOException {
    List<JsonNode> docs = manifests(DEPLOY);
    assertThat(docs).isNotEmpty();
    assertThat(docs)
        .allSatisfy(
            doc -> {
              assertThat(doc.path("kind").asText()).isNotBlank();
              assertThat(doc.path("apiVersion").asText()).isNotBlank();
            });
  }

  @Test
  void controlPlaneDeploymentSetsOnlyEnvironmentVariablesTheCodeReads() throws IOException {
    List<JsonNode> containers =
        containers(manifests(DEPLOY.resolve("control-plane")), "Deployment");
    assertThat(containers).hasSize(1);
    List<String> names = new ArrayList<>();
    containers.get(0).path("env").forEach(env -> names.add(env.path("name").asText()));
    assertThat(names)
        .isNotEmpty()
        .allSatisfy(name -> assertThat(ControlPlaneConfig.ENVIRONMENT).contains(name));
    assertThat(names)
        .contains(
            ControlPlaneConfig.DB_URL, ControlPlaneConfig.DB_USER, ControlPlaneConfig.DB_PASSWORD);
  }

  @Test
  void controlPlaneDeploymentOffersEveryPrometheusSettingTheCodeReadsAndNoOther()
      throws IOException {
    String text = Files.readString(DEPLOY.resolve("control-plane/deployment.yaml"));
    Set<String> offered = new TreeSet<>();
    Matcher m = Pattern.compile("OLMSTEAD_PROMETHEUS_[A-Z_]+").matcher(text);
    while (m.find()) {
      offered.add(m.group());
    }
    assertThat(offered).isEqualTo(new TreeSet<>(PrometheusSettings.ENVIRONMENT));
    assertThat(ControlPlaneConfig.ENVIRONMENT).containsAll(PrometheusSettings.ENVIRONMENT);
  }

  @Test
  void controlPlaneProbesHaveExplicitTimingsAndReadinessOutwaitsItsDatabaseCheck()
      throws IOException {
    JsonNode container =
        containers(manifests(DEPLOY.resolve("control-plane")), "Deployment").get(0);
    for (String probe : List.of("readinessProbe", "livenessProbe")) {
      JsonNode p = container.path(probe);
      assertThat(p.path("httpGet").path("path").asText()).as(probe).isIn("/readyz", "/healthz");
      for (String field : List.of("timeoutSeconds", "periodSeconds", "failureThreshold")) {
        assertThat(p.path(field).isInt()).as(probe + "." + field + " is set").isTrue();
        assertThat(p.path(field).asInt()).as(probe + "." + field).isPositive();
      }
      assertThat(p.path("timeoutSeconds").asInt())
          .as(probe + " timeout below its period")
          .isLessThan(p.path("periodSeconds").asInt());
    }
    assertThat(container.path("readinessProbe").path("timeoutSeconds").asInt() * 1000L)
        .as("readiness timeout above the longest database check")
        .isGreaterThan(DatabaseReadiness.TIMEOUT_MILLIS);
  }

  @Test
  void controlPlaneContainerPortIsThePortTheCodeListensOn() throws IOException {
    List<JsonNode> docs = manifests(DEPLOY.resolve("control-plane"));
    JsonNode container = containers(docs, "Deployment").get(0);
    int configured = ControlPlaneConfig.DEFAULT_PORT;
    for (JsonNode env : container.path("env")) {
      if (ControlPlaneConfig.PORT.equals(env.path("name").asText())) {
        configured = Integer.parseInt(env.path("value").asText());
      }
    }
    JsonNode port = container.path("ports").get(0);
    assertThat(port.path("containerPort").asInt()).isEqualTo(configured);
    String portName = port.path("name").asText();
    assertThat(container.path("readinessProbe").path("httpGet").path("path").asText())
        .isEqualTo("/readyz");
    assertThat(container.path("livenessProbe").path("httpGet").path("path").asText())
        .isEqualTo("/healthz");
    JsonNode service =
        docs.stream()
            .filter(d -> "Service".equals(d.path("kind").asText()))
            .findFirst()
            .orElseThrow();
    assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText())
        .isIn(portName, String.valueOf(configured));
  }

  @Test
  void controlPlaneReadsHostedClustersEverywhereButSecretsOnlyInAHostedClusterNamespace()
      throws IOException {
    List<JsonNode> docs = manifests(DEPLOY.resolve("control-plane"));
    JsonNode clusterRole =
        docs.stream()
            .filter(d -> "ClusterRole".equals(d.path("kind").asText()))
            .findFirst()
            .orElseThrow();
    String rules = clusterRole.path("rules").toString();
    assertThat(rules)
        .contains(
            "hypershift.openshift.io", "hostedclusters", "hostedclusters.hypershift.openshift.io")
        .doesNotContain("secrets", "nodepools", "create", "update", "patch", "delete");
    JsonNode role =
        docs.stream().filter(d -> "Role".equals(d.path("kind").asText())).findFirst().orElseThrow();
    assertThat(role.path("metadata").path("namespace").asText()).isEqualTo("clusters");
    assertThat(role.path("rules").toString())
        .contains("secrets")
        .doesNotContain("create", "update", "patch", "delete");
    JsonNode env = containers(docs, "Deployment").get(0).path("env");
    assertThat(env.toString())
        .contains(HypershiftSettings.MANAGEMENT_KUBECONFIG, HypershiftSettings.IN_CLUSTER);
  }
}
