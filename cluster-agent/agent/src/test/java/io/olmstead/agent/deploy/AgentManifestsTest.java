package io.olmstead.agent.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.olmstead.agent.config.AgentConfig;
import io.olmstead.agent.config.AgentMode;
import io.olmstead.agent.health.HealthSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/agent must configure the agent with settings it reads and accepts, and give it the rights
 * it uses.
 */
class AgentManifestsTest {
  private static final Path DIR = Path.of("..", "..", "deploy", "agent");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static List<JsonNode> manifests() throws IOException {
    List<JsonNode> docs = new ArrayList<>();
    try (Stream<Path> files = Files.list(DIR)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        try (MappingIterator<JsonNode> it =
            YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
          it.forEachRemaining(
              doc -> {
                if (doc != null
                    && !doc.isEmpty()
                    && !"Kustomization".equals(doc.path("kind").asText())) {
                  docs.add(doc);
                }
              });
        }
      }
    }
    return docs;
  }

  private static JsonNode only(List<JsonNode> docs, String kind) {
    List<JsonNode> found = docs.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    assertThat(found).as(kind).hasSize(1);
    return found.get(0);
  }

  @Test
  void deploymentEnvironmentIsAValidAgentConfiguration() throws Exception {
    JsonNode container =
        only(manifests(), "Deployment")
            .path("spec")
            .path("template")
            .path("spec")
            .path("containers")
            .get(0);
    Map<String, String> env = new HashMap<>();
    container
        .path("env")
        .forEach(
            e ->
                env.put(
                    e.path("name").asText(),
                    e.has("value")
                        ? e.path("value").asText()
                        : "from-"
                            + e.path("valueFrom").path("secretKeyRef").path("name").asText()));
    assertThat(env.keySet()).allSatisfy(name -> assertThat(AgentConfig.ENVIRONMENT).contains(name));
    AgentConfig config = AgentConfig.fromMap(env);
    assertThat(config.mode()).isEqualTo(AgentMode.IN_GUEST);
    assertThat(config.controlPlaneUrl()).isPresent();
    assertThat(config.enrollmentToken()).isPresent();
    assertThat(container.path("args").get(0).asText()).isEqualTo("run");
    // a read-only root file system leaves no place for a credential file: the credential must live
    // in a Secret
    assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean())
        .isTrue();
    assertThat(config.credentialSecret())
        .hasValueSatisfying(ref -> assertThat(ref).startsWith("olmstead-agent/"));
  }

  @Test
  void probesUseTheHealthPortWithExplicitTimings() throws Exception {
    JsonNode container =
        only(manifests(), "Deployment")
            .path("spec")
            .path("template")
            .path("spec")
            .path("containers")
            .get(0);
    JsonNode port = container.path("ports").get(0);
    assertThat(port.path("containerPort").asInt()).isEqualTo(HealthSettings.DEFAULT_PORT);
    Map<String, String> paths = Map.of("livenessProbe", "/healthz", "readinessProbe", "/readyz");
    paths.forEach(
        (probe, path) -> {
          JsonNode p = container.path(probe);
          assertThat(p.path("httpGet").path("path").asText()).as(probe).isEqualTo(path);
          assertThat(p.path("httpGet").path("port").asText())
              .as(probe)
              .isEqualTo(port.path("name").asText());
          assertThat(p.path("timeoutSeconds").asInt())
              .as(probe + " timeout")
              .isPositive()
              .isLessThan(p.path("periodSeconds").asInt());
          assertThat(p.path("failureThreshold").asInt())
              .as(probe + " failureThreshold")
              .isPositive();
        });
  }

  @Test
  void serviceAccountIsBoundToARoleThatCoversBundleObjectsAndTheCredentialSecret()
      throws Exception {
    List<JsonNode> docs = manifests();
    JsonNode deployment = only(docs, "Deployment");
    String account =
        deployment.path("spec").path("template").path("spec").path("serviceAccountName").asText();
    assertThat(only(docs, "ServiceAccount").path("metadata").path("name").asText())
        .isEqualTo(account);
    JsonNode binding = only(docs, "ClusterRoleBinding");
    assertThat(binding.path("subjects").get(0).path("name").asText()).isEqualTo(account);
    JsonNode role = only(docs, "ClusterRole");
    assertThat(binding.path("roleRef").path("name").asText())
        .isEqualTo(role.path("metadata").path("name").asText());
    List<String> wildcardVerbs = new ArrayList<>();
    role.path("rules")
        .forEach(
            rule -> {
              if (rule.path("apiGroups").toString().contains("\"*\"")
                  && rule.path("resources").toString().contains("\"*\"")) {
                rule.path("verbs").forEach(v -> wildcardVerbs.add(v.asText()));
              }
            });
    assertThat(wildcardVerbs).contains("*");
  }

  @Test
  void theEnrollmentTokenComesFromTheSecretTheManifestsShip() throws Exception {
    List<JsonNode> docs = manifests();
    JsonNode secret = only(docs, "Secret");
    JsonNode tokenRef = null;
    for (JsonNode e :
        only(docs, "Deployment")
            .path("spec")
            .path("template")
            .path("spec")
            .path("containers")
            .get(0)
            .path("env")) {
      if (AgentConfig.ENROLLMENT_TOKEN.equals(e.path("name").asText())) {
        tokenRef = e.path("valueFrom").path("secretKeyRef");
      }
    }
    assertThat(tokenRef).isNotNull();
    assertThat(tokenRef.path("name").asText())
        .isEqualTo(secret.path("metadata").path("name").asText());
    assertThat(secret.path("stringData").has(tokenRef.path("key").asText())).isTrue();
  }
}
