package io.olmstead.olmcore.installplan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.fbc.Gvk;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SupportedKindsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode object(String apiVersion, String kind, String name) {
    return JSON.createObjectNode()
        .put("apiVersion", apiVersion)
        .put("kind", kind)
        .set("metadata", JSON.createObjectNode().put("name", name));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Secret",
        "ConfigMap",
        "Service",
        "ServiceAccount",
        "Role",
        "RoleBinding",
        "ClusterRole",
        "ClusterRoleBinding",
        "ServiceMonitor",
        "PrometheusRule",
        "PodDisruptionBudget",
        "PriorityClass",
        "VerticalPodAutoscaler",
        "ConsoleYAMLSample",
        "ConsoleQuickStart",
        "ConsoleCLIDownload",
        "ConsoleLink",
        "ConsolePlugin",
        "NetworkPolicy",
        "CustomResourceDefinition",
        "ClusterServiceVersion"
      })
  void theKindsOlmInstallsAreSupported(String kind) {
    assertThat(SupportedKinds.supported(kind)).isTrue();
  }

  @Test
  void anyOtherKindIsRefusedAsOlmRefusesItNamingTheObject() {
    List<JsonNode> manifests =
        List.of(
            object("v1", "ConfigMap", "settings"),
            object("batch/v1", "Job", "migrate"),
            object("apps/v1", "Deployment", "extra"));
    assertThat(SupportedKinds.unsupported(manifests))
        .contains(
            "the InstallPlan contains invalid data: UnsupportedResource batch/v1 Job migrate");
    assertThat(SupportedKinds.unsupported(manifests.subList(0, 1))).isEmpty();
  }

  @Test
  void theApisLookedUpAreTheOptionalOnesNotTheCoreOnesNorThoseTheBundlesOwnCrdsDefine() {
    JsonNode crd =
        JSON.createObjectNode()
            .put("apiVersion", "apiextensions.k8s.io/v1")
            .put("kind", "CustomResourceDefinition")
            .set(
                "spec",
                JSON.createObjectNode()
                    .put("group", "example.com")
                    .<ObjectNode>set("names", JSON.createObjectNode().put("kind", "PrometheusRule"))
                    .set(
                        "versions",
                        JSON.createArrayNode().add(JSON.createObjectNode().put("name", "v1"))));
    List<JsonNode> objects =
        List.of(
            crd,
            object("v1", "Secret", "s"),
            object("apps/v1", "Deployment", "d"),
            object("monitoring.coreos.com/v1", "ServiceMonitor", "metrics"),
            object("example.com/v1", "PrometheusRule", "own"),
            object("policy/v1", "PodDisruptionBudget", "pdb"));
    assertThat(SupportedKinds.toLookUp(objects))
        .containsExactly(
            new Gvk("monitoring.coreos.com", "v1", "ServiceMonitor"),
            new Gvk("policy", "v1", "PodDisruptionBudget"));
  }

  @Test
  void theWebhookObjectsThePlanWritesAreBuiltInAndNeverLookedUp() {
    List<JsonNode> objects =
        List.of(
            object("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "vwh"),
            object("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", "mwh"),
            object("apiregistration.k8s.io/v1", "APIService", "v1.example.com"),
            object("monitoring.coreos.com/v1", "ServiceMonitor", "metrics"));
    assertThat(SupportedKinds.toLookUp(objects))
        .containsExactly(new Gvk("monitoring.coreos.com", "v1", "ServiceMonitor"));
  }

  @Test
  void aMissingApiIsNamedInOlmsWords() {
    assertThat(SupportedKinds.notServed(new Gvk("monitoring.coreos.com", "v1", "ServiceMonitor")))
        .isEqualTo("Unable to find GVK in discovery: monitoring.coreos.com v1 ServiceMonitor");
  }
}
