package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Desired objects compare equal to what the server stores once applied, so an unchanged object is
 * never rewritten.
 */
class ServerFormTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  @Test
  void secretStringDataIsStoredAsBase64DataWinningOverTheSameKey() throws Exception {
    JsonNode secret =
        ServerForm.stored(
            json(
                """
        {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"a":"eA==","b":"eQ=="},"stringData":{"a":"hi"}}"""));
    assertThat(secret.has("stringData")).isFalse();
    assertThat(secret.path("data")).isEqualTo(json("{\"a\":\"aGk=\",\"b\":\"eQ==\"}"));
  }

  @Test
  void anAggregatedClusterRoleLeavesItsRulesToTheAggregationController() throws Exception {
    JsonNode role =
        ServerForm.stored(
            json(
                """
        {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r"},
         "aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"x":"y"}}]},"rules":[]}"""));
    assertThat(role.has("rules")).isFalse();
    assertThat(role.path("aggregationRule").path("clusterRoleSelectors")).hasSize(1);
    JsonNode plain =
        json(
            """
        {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r"},"rules":[]}""");
    assertThat(ServerForm.stored(plain)).isSameAs(plain);
  }

  @Test
  void pullSecretsAnotherControllerAddedToAServiceAccountAreKeptAndOursEnsured() throws Exception {
    JsonNode existing =
        json(
            """
        {"kind":"ServiceAccount","imagePullSecrets":[{"name":"sa-dockercfg-x"}],"secrets":[{"name":"sa-token-y"}]}""");
    JsonNode desired =
        json(
            """
        {"kind":"ServiceAccount","metadata":{"name":"sa"},"imagePullSecrets":[{"name":"bundle-pull"}]}""");
    JsonNode wanted = ServerForm.keepingAddedEntries(existing, desired);
    assertThat(wanted.path("imagePullSecrets"))
        .isEqualTo(json("[{\"name\":\"sa-dockercfg-x\"},{\"name\":\"bundle-pull\"}]"));
    assertThat(wanted.has("secrets")).isFalse();

    JsonNode applied =
        json(
            """
        {"kind":"ServiceAccount","metadata":{"name":"sa","uid":"u"},
         "imagePullSecrets":[{"name":"sa-dockercfg-x"},{"name":"bundle-pull"}]}""");
    assertThat(Subset.contains(applied, ServerForm.keepingAddedEntries(applied, desired))).isTrue();
  }
}
