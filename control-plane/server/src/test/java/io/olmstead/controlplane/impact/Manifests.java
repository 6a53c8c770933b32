package io.olmstead.controlplane.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Small CSVs and CRDs written as JSON text with single quotes, for the diff tables. */
final class Manifests {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Manifests() {}

  static JsonNode json(String singleQuoted) {
    try {
      return JSON.readTree(singleQuoted.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  /**
   * A CSV with these {@code permissions} and {@code clusterPermissions} rules (JSON arrays of
   * rules).
   */
  static JsonNode csv(String permissionRules, String clusterRules) {
    return json(
        "{'kind':'ClusterServiceVersion','spec':{'install':{'spec':{"
            + "'permissions':[{'serviceAccountName':'op','rules':"
            + permissionRules
            + "}],"
            + "'clusterPermissions':[{'serviceAccountName':'op','rules':"
            + clusterRules
            + "}]}}}}");
  }

  /** A CRD with versions {@code [name, storage, schema properties]}. */
  static JsonNode crd(String name, String versionsJson) {
    return json(
        "{'kind':'CustomResourceDefinition','metadata':{'name':'"
            + name
            + "'},'spec':{'group':'x.io',"
            + "'scope':'Namespaced','names':{'kind':'Thing'},'versions':"
            + versionsJson
            + "}}");
  }
}
