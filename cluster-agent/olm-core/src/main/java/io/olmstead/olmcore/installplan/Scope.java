package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/** Which kinds are cluster-scoped, so the planner sets the namespace only where it belongs. */
final class Scope {
  // Cluster-scoped kinds a bundle may carry (OLM's supported bundle kinds plus common API
  // extensions).
  private static final Set<String> CLUSTER_SCOPED =
      Set.of(
          "CustomResourceDefinition",
          "ClusterRole",
          "ClusterRoleBinding",
          "Namespace",
          "PriorityClass",
          "StorageClass",
          "APIService",
          "ValidatingWebhookConfiguration",
          "MutatingWebhookConfiguration",
          "PersistentVolume",
          "ConsoleYAMLSample",
          "ConsoleQuickStart",
          "ConsoleCLIDownload",
          "ConsoleLink",
          "ConsolePlugin",
          "SecurityContextConstraints",
          "VolumeSnapshotClass",
          "CSIDriver",
          "IngressClass",
          "RuntimeClass",
          "ClusterIssuer");

  private Scope() {}

  static boolean namespaced(String kind) {
    return !CLUSTER_SCOPED.contains(kind);
  }

  static void setNamespace(ObjectNode manifest, String namespace) {
    ObjectNode meta = DeploymentOverrides.object(manifest, "metadata");
    if (namespaced(manifest.path("kind").asText())) {
      meta.put("namespace", namespace);
    } else {
      meta.remove("namespace");
    }
  }
}
