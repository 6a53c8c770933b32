package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.testsupport.Kubectl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/hypershift} rendered by {@code kubectl kustomize} (skipped, saying so, without
 * kubectl): the control plane reads no Secret cluster-wide, the pool gets only {@code get} on named
 * secrets, the pool StatefulSet runs {@code pool}, and its NetworkPolicy accepts nothing.
 */
class HypershiftDeployTest {
  private static final Path DEPLOY = Path.of("..", "..", "deploy", "hypershift");
  private static final Path PER_CLUSTER = Path.of("..", "..", "deploy", "hypershift-per-cluster");

  @Test
  void noClusterWideSecretListAndThePoolGetsOnlyNamedSecrets() throws Exception {
    List<JsonNode> docs = render(DEPLOY);
    for (JsonNode role : kind(docs, "ClusterRole")) {
      for (JsonNode rule : role.path("rules")) {
        if (rule.path("resources").toString().contains("secrets")) {
          assertThat(rule.path("verbs").toString())
              .as(role.path("metadata").path("name").asText())
              .isEqualTo("[\"get\"]");
          assertThat(rule.path("resourceNames").size()).as("secret names").isPositive();
        }
      }
    }
    JsonNode controlPlane = named(kind(docs, "ClusterRole"), "olmstead-control-plane");
    assertThat(controlPlane.path("rules").toString())
        .contains("hostedclusters")
        .doesNotContain("secrets");
    JsonNode pool = named(kind(docs, "ClusterRole"), "olmstead-agent-pool");
    assertThat(pool.path("rules").toString()).contains("service-network-admin-kubeconfig");
    // the watcher's Secret informer: one namespace, read only
    JsonNode secretsRole = named(kind(docs, "Role"), "olmstead-hostedcluster-kubeconfigs");
    assertThat(secretsRole.path("metadata").path("namespace").asText()).isEqualTo("clusters");
    assertThat(secretsRole.path("rules").toString())
        .doesNotContain("create", "update", "patch", "delete");
  }

  @Test
  void thePoolStatefulSetRunsPoolWithItsOwnAccountAndAcceptsNoConnection() throws Exception {
    List<JsonNode> docs = render(DEPLOY);
    JsonNode statefulSet = named(kind(docs, "StatefulSet"), "olmstead-agent-pool");
    JsonNode podSpec = statefulSet.path("spec").path("template").path("spec");
    assertThat(podSpec.path("serviceAccountName").asText()).isEqualTo("olmstead-agent-pool");
    assertThat(podSpec.path("containers").get(0).path("args").toString()).isEqualTo("[\"pool\"]");
    assertThat(statefulSet.path("spec").path("serviceName").asText())
        .isEqualTo(
            named(kind(docs, "Service"), "olmstead-agent-pool")
                .path("metadata")
                .path("name")
                .asText());
    JsonNode policy = named(kind(docs, "NetworkPolicy"), "olmstead-agent-pool");
    assertThat(policy.path("spec").path("policyTypes").toString()).contains("Ingress", "Egress");
    assertThat(policy.path("spec").path("ingress").size()).isZero();
    JsonNode deployment = named(kind(docs, "Deployment"), "olmstead-control-plane");
    assertThat(
            deployment
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0)
                .path("env")
                .toString())
        .contains(HypershiftSettings.MANAGEMENT_KUBECONFIG);
  }

  @Test
  void thePoolStatefulSetProbesLivenessAndReadinessOnTheAgentHealthPortWithTimeouts()
      throws Exception {
    JsonNode container =
        named(kind(render(DEPLOY), "StatefulSet"), "olmstead-agent-pool")
            .path("spec")
            .path("template")
            .path("spec")
            .path("containers")
            .get(0);
    assertThat(container.path("ports").toString()).contains("\"health\"", "8081");
    for (String probe : List.of("livenessProbe", "readinessProbe")) {
      JsonNode http = container.path(probe).path("httpGet");
      assertThat(http.path("port").asText()).as(probe).isEqualTo("health");
      assertThat(container.path(probe).path("timeoutSeconds").asInt()).as(probe).isPositive();
    }
    assertThat(container.path("livenessProbe").path("httpGet").path("path").asText())
        .isEqualTo("/healthz");
    assertThat(container.path("readinessProbe").path("httpGet").path("path").asText())
        .isEqualTo("/readyz");
  }

  @Test
  void theHostedControlPlaneNamespacePolicyLetsOnlyThePoolReachTheKubeApiserver() throws Exception {
    List<JsonNode> docs = render(DEPLOY.resolve("hosted-control-plane-namespace"));
    JsonNode policy = named(kind(docs, "NetworkPolicy"), "olmstead-agent-pool-to-kube-apiserver");
    assertThat(policy.path("metadata").path("namespace").asText()).isEqualTo("clusters-example");
    JsonNode from = policy.path("spec").path("ingress").get(0).path("from").get(0);
    assertThat(from.path("podSelector").toString()).contains("olmstead-agent-pool");
    assertThat(from.path("namespaceSelector").toString()).contains("olmstead-system");
  }

  @Test
  void thePoolMayGetButNotListTheAdminKubeconfigsOfTheHostedClusterNamespace() throws Exception {
    JsonNode role = named(kind(render(DEPLOY), "Role"), "olmstead-agent-pool-admin-kubeconfigs");
    assertThat(role.path("metadata").path("namespace").asText()).isEqualTo("clusters");
    assertThat(role.path("rules"))
        .singleElement()
        .satisfies(
            rule -> {
              assertThat(rule.path("resources").toString()).isEqualTo("[\"secrets\"]");
              assertThat(rule.path("verbs").toString()).isEqualTo("[\"get\"]");
            });
    JsonNode binding =
        named(kind(render(DEPLOY), "RoleBinding"), "olmstead-agent-pool-admin-kubeconfigs");
    assertThat(binding.path("subjects").get(0).path("name").asText())
        .isEqualTo("olmstead-agent-pool");
  }

  @Test
  void perClusterModeRunsTheControlPlaneInThatModeWithNoPoolAndAGrantLimitedToTheAgentsObjects()
      throws Exception {
    List<JsonNode> docs = render(PER_CLUSTER);
    JsonNode env =
        named(kind(docs, "Deployment"), "olmstead-control-plane")
            .path("spec")
            .path("template")
            .path("spec")
            .path("containers")
            .get(0)
            .path("env");
    assertThat(env.toString())
        .contains(
            "{\"name\":\"OLMSTEAD_HYPERSHIFT_AGENTS\",\"value\":\"per-cluster\"}",
            "OLMSTEAD_HOSTED_AGENT_IMAGE",
            HypershiftSettings.MANAGEMENT_KUBECONFIG);
    assertThat(
            named(kind(docs, "StatefulSet"), "olmstead-agent-pool")
                .path("spec")
                .path("replicas")
                .asInt())
        .isZero();
    JsonNode role = named(kind(docs, "ClusterRole"), "olmstead-control-plane-hosted-agents");
    List<String> kinds = new ArrayList<>();
    for (JsonNode rule : role.path("rules")) {
      rule.path("resources").forEach(r -> kinds.add(r.asText()));
      String verbs = rule.path("verbs").toString();
      assertThat(verbs).doesNotContain("list", "watch", "deletecollection", "*");
      if (!verbs.equals("[\"create\"]")) {
        // every verb but create names its objects
        assertThat(rule.path("resourceNames").toString())
            .isIn("[\"olmstead-agent\"]", "[\"service-network-admin-kubeconfig\"]");
      }
      if (rule.path("resourceNames").toString().contains("service-network")) {
        assertThat(verbs).isEqualTo("[\"get\"]");
      }
    }
    assertThat(kinds).containsOnly("secrets", "serviceaccounts", "deployments", "networkpolicies");
    JsonNode binding =
        named(kind(docs, "ClusterRoleBinding"), "olmstead-control-plane-hosted-agents");
    assertThat(binding.path("subjects").get(0).path("name").asText())
        .isEqualTo("olmstead-control-plane");
    // everything deploy/hypershift has is still there
    assertThat(kind(docs, "ClusterRole")).hasSize(kind(render(DEPLOY), "ClusterRole").size() + 1);
  }

  private static List<JsonNode> render(Path dir) throws IOException, InterruptedException {
    String kubectl = Kubectl.path();
    assumeTrue(
        kubectl != null, "kubectl is not installed (not on PATH): deploy/hypershift not rendered");
    Process process =
        new ProcessBuilder(kubectl, "kustomize", dir.toString()).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class).readValues(out)) {
      it.forEachRemaining(docs::add);
    }
    return docs;
  }

  private static List<JsonNode> kind(List<JsonNode> docs, String kind) {
    return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
  }

  private static JsonNode named(List<JsonNode> docs, String name) {
    return docs.stream()
        .filter(d -> name.equals(d.path("metadata").path("name").asText()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " rendered"));
  }
}
