package io.olmstead.agent.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Map;

/**
 * The {@code operators.coreos.com} OperatorCondition API: its CRD (installed when the cluster has
 * no OLM) and the per-bundle object operators built with operator-lib read and write ({@code
 * OPERATOR_CONDITION_NAME}).
 */
public final class OperatorConditions {
  public static final String API_VERSION = "operators.coreos.com/v2";
  public static final String KIND = "OperatorCondition";
  public static final String CRD_NAME = "operatorconditions.operators.coreos.com";
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private OperatorConditions() {}

  /**
   * The CRD: v1 and v2 served, v2 stored, status subresource, schema open (OLM validates in its
   * controller).
   */
  public static ObjectNode crd() {
    ObjectNode crd =
        JSON.objectNode()
            .put("apiVersion", "apiextensions.k8s.io/v1")
            .put("kind", "CustomResourceDefinition");
    crd.putObject("metadata")
        .put("name", CRD_NAME)
        .putObject("labels")
        .put(ManagedLabels.MANAGED_BY, ManagedLabels.MANAGED_BY_VALUE);
    ObjectNode spec =
        crd.putObject("spec").put("group", "operators.coreos.com").put("scope", "Namespaced");
    spec.putObject("names")
        .put("kind", KIND)
        .put("listKind", "OperatorConditionList")
        .put("plural", "operatorconditions")
        .put("singular", "operatorcondition")
        .putArray("shortNames")
        .add("condition");
    ArrayNode versions = spec.putArray("versions");
    for (String version : new String[] {"v1", "v2"}) {
      ObjectNode v =
          versions
              .addObject()
              .put("name", version)
              .put("served", true)
              .put("storage", version.equals("v2"));
      v.putObject("subresources").putObject("status");
      ObjectNode schema = v.putObject("schema").putObject("openAPIV3Schema").put("type", "object");
      ObjectNode props = schema.putObject("properties");
      props
          .putObject("spec")
          .put("type", "object")
          .put("x-kubernetes-preserve-unknown-fields", true);
      props
          .putObject("status")
          .put("type", "object")
          .put("x-kubernetes-preserve-unknown-fields", true);
    }
    return crd;
  }

  /** Whether a CRD found in the cluster is the one the agent installed (labelled so), not OLM's. */
  public static boolean ours(JsonNode crd) {
    return ManagedLabels.MANAGED_BY_VALUE.equals(
        crd.path("metadata").path("labels").path(ManagedLabels.MANAGED_BY).asText(null));
  }

  /**
   * The OperatorCondition for {@code bundle}: named after it, listing its deployments and service
   * accounts.
   */
  public static ObjectNode forBundle(
      String bundle,
      String namespace,
      Map<String, String> labels,
      Map<String, String> annotations,
      Collection<String> deployments,
      Collection<String> serviceAccounts) {
    ObjectNode oc = JSON.objectNode().put("apiVersion", API_VERSION).put("kind", KIND);
    ObjectNode meta = oc.putObject("metadata").put("name", bundle).put("namespace", namespace);
    labels.forEach(meta.putObject("labels")::put);
    annotations.forEach(meta.putObject("annotations")::put);
    ObjectNode spec = oc.putObject("spec");
    deployments.forEach(spec.putArray("deployments")::add);
    serviceAccounts.forEach(spec.putArray("serviceAccounts")::add);
    return oc;
  }

  /**
   * The Upgradeable entries operators write to {@code spec.conditions}, which OLM mirrors into
   * status.
   */
  public static JsonNode specConditions(JsonNode operatorCondition) {
    return operatorCondition.path("spec").path("conditions");
  }
}
