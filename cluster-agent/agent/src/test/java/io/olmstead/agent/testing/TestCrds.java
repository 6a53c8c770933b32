package io.olmstead.agent.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * CRDs a test cluster serves to stand for an API a real cluster has installed (e.g. the Prometheus
 * operator's).
 */
public final class TestCrds {
  private TestCrds() {}

  /**
   * {@code servicemonitors.monitoring.coreos.com}, served at v1 with any content, as
   * prometheus-operator defines it.
   */
  /**
   * A Namespace object, for target namespaces that must exist before an operator watching them
   * installs.
   */
  public static ObjectNode namespace(String name) {
    ObjectNode ns =
        JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "Namespace");
    ns.putObject("metadata").put("name", name);
    return ns;
  }

  public static ObjectNode serviceMonitor() {
    ObjectNode crd =
        JsonNodeFactory.instance
            .objectNode()
            .put("apiVersion", "apiextensions.k8s.io/v1")
            .put("kind", "CustomResourceDefinition");
    crd.putObject("metadata").put("name", "servicemonitors.monitoring.coreos.com");
    ObjectNode spec =
        crd.putObject("spec").put("group", "monitoring.coreos.com").put("scope", "Namespaced");
    spec.putObject("names")
        .put("kind", "ServiceMonitor")
        .put("plural", "servicemonitors")
        .put("singular", "servicemonitor");
    ObjectNode version =
        spec.putArray("versions")
            .addObject()
            .put("name", "v1")
            .put("served", true)
            .put("storage", true);
    version
        .putObject("schema")
        .putObject("openAPIV3Schema")
        .put("type", "object")
        .put("x-kubernetes-preserve-unknown-fields", true);
    return crd;
  }
}
