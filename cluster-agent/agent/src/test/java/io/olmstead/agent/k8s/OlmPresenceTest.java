package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which package OLM manages in a namespace, from its CSVs and Subscriptions there. */
class OlmPresenceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode csv(String name, String properties, String... labels) throws Exception {
    StringBuilder l = new StringBuilder();
    for (String label : labels) {
      l.append(l.isEmpty() ? "" : ",").append('"').append(label).append("\":\"x\"");
    }
    return JSON.readTree(
        "{\"metadata\":{\"name\":\""
            + name
            + "\",\"labels\":{"
            + l
            + "},\"annotations\":"
            + (properties == null
                ? "{}"
                : "{\"operatorframework.io/properties\":"
                    + JSON.writeValueAsString(properties)
                    + "}")
            + "}}");
  }

  private static String pkg(String name) {
    return "{\"properties\":[{\"type\":\"olm.gvk\",\"value\":{}},{\"type\":\"olm.package\",\"value\":{\"packageName\":\""
        + name
        + "\",\"version\":\"1.0.0\"}}]}";
  }

  @Test
  void aCsvOfThePackageNamesItself() throws Exception {
    assertThat(
            OlmPresence.managedBy(
                "etcd",
                List.of(csv("other.v1", pkg("other")), csv("etcdoperator.v0.9.4", pkg("etcd"))),
                List.of()))
        .contains("ClusterServiceVersion etcdoperator.v0.9.4");
  }

  @Test
  void aCopiedCsvOfAnOperatorInstalledElsewhereDoesNotCount() throws Exception {
    assertThat(
            OlmPresence.managedBy(
                "etcd",
                List.of(csv("etcdoperator.v0.9.4", pkg("etcd"), "olm.copiedFrom")),
                List.of()))
        .isEmpty();
  }

  @Test
  void anOlmSubscriptionOfThePackageNamesItsInstalledCsvOrItself() throws Exception {
    JsonNode installed =
        JSON.readTree(
            "{\"metadata\":{\"name\":\"my-etcd\"},\"spec\":{\"name\":\"etcd\"},"
                + "\"status\":{\"installedCSV\":\"etcdoperator.v0.9.2\"}}");
    JsonNode fresh =
        JSON.readTree("{\"metadata\":{\"name\":\"my-etcd\"},\"spec\":{\"name\":\"etcd\"}}");
    assertThat(OlmPresence.managedBy("etcd", List.of(), List.of(installed)))
        .contains("ClusterServiceVersion etcdoperator.v0.9.2");
    assertThat(OlmPresence.managedBy("etcd", List.of(), List.of(fresh)))
        .contains("Subscription my-etcd");
    assertThat(OlmPresence.managedBy("prometheus", List.of(), List.of(installed))).isEmpty();
  }

  @Test
  void aCsvWithoutOrWithAMalformedPropertiesAnnotationNamesNoPackage() throws Exception {
    assertThat(
            OlmPresence.managedBy(
                "etcd", List.of(csv("a", null), csv("b", "{not json")), List.of()))
        .isEmpty();
  }
}
