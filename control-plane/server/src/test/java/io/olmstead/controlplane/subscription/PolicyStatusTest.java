package io.olmstead.controlplane.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code removedApiClusters} of a subscription's status from the placed clusters' versions,
 * bounded.
 */
class PolicyStatusTest {
  private static final JsonObject REPORT =
      new JsonObject()
          .put("bundle", "op.v2")
          .put(
              "findings",
              new JsonArray(
                  List.of(
                      new JsonObject()
                          .put("rule", "portability/removed-api")
                          .put("removedIn", "1.22")
                          .put(
                              "message",
                              "CustomResourceDefinition a uses apiextensions.k8s.io/v1beta1, removed in Kubernetes 1.22"),
                      new JsonObject()
                          .put("rule", "portability/removed-api")
                          .put("removedIn", "1.25")
                          .put(
                              "message",
                              "PodDisruptionBudget b uses policy/v1beta1, removed in Kubernetes 1.25"),
                      new JsonObject()
                          .put("rule", "security/rbac-wildcard")
                          .put("message", "* in verbs"))));

  @Test
  void countsEveryClusterOnAVersionThatRemovedAnApiAndListsThoseGivenWithTheirApis() {
    Map<String, Long> counts =
        Map.of("v1.21.14", 5000L, "v1.23.1", 3000L, "v1.29.3+k3s1", 2000L, "garbage", 7L);
    Map<String, String> listed = new LinkedHashMap<>();
    listed.put("a-0001", "v1.23.1");
    listed.put("a-0002", "v1.29.3+k3s1");
    JsonObject out = PolicyStatus.removedApiClusters(REPORT, counts, listed);
    assertThat(out.getLong("count")).isEqualTo(5000L);
    assertThat(out.getJsonArray("items")).hasSize(2);
    JsonObject first = out.getJsonArray("items").getJsonObject(0);
    assertThat(first.getString("cluster")).isEqualTo("a-0001");
    assertThat(first.getString("kubernetesVersion")).isEqualTo("v1.23.1");
    assertThat(first.getJsonArray("apis")).hasSize(1);
    assertThat(first.getJsonArray("apis").getString(0)).contains("apiextensions.k8s.io/v1beta1");
    assertThat(out.getJsonArray("items").getJsonObject(1).getJsonArray("apis")).hasSize(2);
  }

  @Test
  void noClusterIsListedWhenNoVersionReachedARemoval() {
    JsonObject out = PolicyStatus.removedApiClusters(REPORT, Map.of("v1.21.0", 10L), Map.of());
    assertThat(out.getLong("count")).isZero();
    assertThat(out.getJsonArray("items")).isEmpty();
  }
}
