package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The resource layer against the fabric8 mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class ResourceOperatorIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  KubernetesClient client;

  private ResourceOperator operator() {
    return new ResourceOperator(client, new ResourceKinds());
  }

  @Test
  void createsThenReportsUnchangedThenPatchesThenDeletes() throws Exception {
    ResourceOperator ops = operator();
    ObjectNode cm =
        (ObjectNode)
            JSON.readTree(
                """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns","labels":{"a":"1"}},"data":{"k":"v"}}""");
    assertThat(ops.apply(cm).result()).isEqualTo(ApplyOutcome.Result.CREATED);
    assertThat(ops.apply(cm).result()).isEqualTo(ApplyOutcome.Result.UNCHANGED);
    cm.withObjectProperty("data").put("k", "w");
    assertThat(ops.apply(cm).result()).isEqualTo(ApplyOutcome.Result.PATCHED);
    assertThat(ops.get("v1", "ConfigMap", "ns", "c").orElseThrow().path("data").path("k").asText())
        .isEqualTo("w");
    assertThat(ops.list("v1", "ConfigMap", Map.of("a", "1"))).hasSize(1);
    assertThat(ops.delete("v1", "ConfigMap", "ns", "c").result())
        .isEqualTo(ApplyOutcome.Result.DELETED);
    assertThat(ops.delete("v1", "ConfigMap", "ns", "c").result())
        .isEqualTo(ApplyOutcome.Result.UNCHANGED);
    assertThat(ops.get("v1", "ConfigMap", "ns", "c")).isEmpty();
  }

  @Test
  void handlesClusterScopedObjects() throws Exception {
    ResourceOperator ops = operator();
    assertThat(ops.get("v1", "Namespace", null, "absent")).isEmpty();
    ObjectNode ns =
        (ObjectNode)
            JSON.readTree(
                """
        {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"made"}}""");
    assertThat(ops.apply(ns).result()).isEqualTo(ApplyOutcome.Result.CREATED);
    assertThat(ops.get("v1", "Namespace", null, "made")).isPresent();
  }

  @Test
  void keepsStatusAndBumpsGenerationWhenTheSpecChanges() throws Exception {
    ResourceOperator ops = operator();
    ObjectNode d =
        (ObjectNode)
            JSON.readTree(
                """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"ns"},
         "spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"c","image":"i:1"}]}}}}""");
    ops.apply(d);
    ObjectNode live = (ObjectNode) ops.get("apps/v1", "Deployment", "ns", "d").orElseThrow();
    long generation = live.path("metadata").path("generation").asLong();
    live.putObject("status").put("observedGeneration", generation);
    ops.updateStatus(live);
    d.with("spec").put("replicas", 2);
    assertThat(ops.apply(d).result()).isEqualTo(ApplyOutcome.Result.PATCHED);
    ObjectNode after = (ObjectNode) ops.get("apps/v1", "Deployment", "ns", "d").orElseThrow();
    assertThat(after.path("metadata").path("generation").asLong()).isGreaterThan(generation);
    assertThat(after.path("status").path("observedGeneration").asLong()).isEqualTo(generation);
  }
}
