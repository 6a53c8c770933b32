package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every kustomization under deploy/ renders with {@code kubectl kustomize} (what {@code kubectl
 * apply -k} runs), every rendered object lands in a namespace the kustomization names, and a
 * PodDisruptionBudget covers the control plane.
 */
class KustomizeRenderTest {
  private static final Path DEPLOY = Paths.get("..", "..", "deploy");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static List<Path> kustomizations() throws IOException {
    try (Stream<Path> files = Files.walk(DEPLOY)) {
      return files
          .filter(f -> f.getFileName().toString().equals("kustomization.yaml"))
          .map(Path::getParent)
          .sorted()
          .toList();
    }
  }

  static List<JsonNode> render(Path dir) throws Exception {
    String output =
        PrometheusRulesTest.run(DEPLOY, "kubectl", "kustomize", DEPLOY.relativize(dir).toString());
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(output)) {
      while (it.hasNext()) {
        docs.add(it.next());
      }
    }
    return docs;
  }

  @Test
  void everyKustomizationRendersAndPutsItsNamespacedObjectsInItsNamespace() throws Exception {
    assumeTrue(PrometheusRulesTest.onPath("kubectl"), "skipped: kubectl is not installed");
    List<Path> dirs = kustomizations();
    assertThat(dirs)
        .extracting(d -> d.getFileName().toString())
        .contains("control-plane", "agent", "prometheus");
    for (Path dir : dirs) {
      String namespace =
          YAML.readTree(dir.resolve("kustomization.yaml").toFile()).path("namespace").asText();
      List<JsonNode> objects = render(dir);
      assertThat(objects).as(dir + " renders objects").isNotEmpty();
      if (!namespace.isEmpty()) {
        objects.stream()
            .filter(o -> !clusterScoped(o.path("kind").asText()))
            .forEach(
                o ->
                    assertThat(o.path("metadata").path("namespace").asText())
                        .as(
                            dir
                                + ": "
                                + o.path("kind").asText()
                                + " "
                                + o.path("metadata").path("name").asText())
                        .isEqualTo(namespace));
      }
    }
  }

  @Test
  void aPodDisruptionBudgetKeepsOneControlPlaneReplicaThroughADrain() throws Exception {
    assumeTrue(PrometheusRulesTest.onPath("kubectl"), "skipped: kubectl is not installed");
    List<JsonNode> objects = render(DEPLOY.resolve("control-plane"));
    JsonNode deployment =
        objects.stream()
            .filter(o -> o.path("kind").asText().equals("Deployment"))
            .findFirst()
            .orElseThrow();
    JsonNode pdb =
        objects.stream()
            .filter(o -> o.path("kind").asText().equals("PodDisruptionBudget"))
            .findFirst()
            .orElseThrow(
                () -> new AssertionError("no PodDisruptionBudget in deploy/control-plane"));
    assertThat(pdb.path("spec").path("minAvailable").asInt())
        .isPositive()
        .isLessThan(deployment.path("spec").path("replicas").asInt());
    pdb.path("spec")
        .path("selector")
        .path("matchLabels")
        .fields()
        .forEachRemaining(
            label ->
                assertThat(
                        deployment
                            .path("spec")
                            .path("template")
                            .path("metadata")
                            .path("labels")
                            .path(label.getKey())
                            .asText())
                    .isEqualTo(label.getValue().asText()));
  }

  private static boolean clusterScoped(String kind) {
    return List.of("Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition")
        .contains(kind);
  }
}
