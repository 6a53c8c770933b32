package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Objects whose apiVersion a Kubernetes release stopped serving, and RBAC on resources removed
 * altogether. Source: Kubernetes "Deprecated API Migration Guide"
 * (kubernetes.io/docs/reference/using-api/deprecation-guide), sections v1.16, v1.22, v1.25, v1.26,
 * v1.27, v1.29 and v1.32; operator-framework/api AlphaDeprecatedAPIsValidator (the same check in
 * operator-sdk bundle validate). Also: a CSV without {@code minKubeVersion} (OperatorHub
 * validator).
 */
final class RemovedApiRules implements RuleFamily {

  static final String REMOVED = "portability/removed-api";
  static final String MIN_KUBE = "portability/min-kube-version";

  /** "group/version Kind" -> the release that stopped serving it. */
  static final Map<String, String> REMOVED_IN =
      Map.ofEntries(
          // v1.16
          Map.entry("extensions/v1beta1 NetworkPolicy", "1.16"),
          Map.entry("extensions/v1beta1 PodSecurityPolicy", "1.16"),
          Map.entry("extensions/v1beta1 DaemonSet", "1.16"),
          Map.entry("apps/v1beta2 DaemonSet", "1.16"),
          Map.entry("extensions/v1beta1 Deployment", "1.16"),
          Map.entry("apps/v1beta1 Deployment", "1.16"),
          Map.entry("apps/v1beta2 Deployment", "1.16"),
          Map.entry("apps/v1beta1 StatefulSet", "1.16"),
          Map.entry("apps/v1beta2 StatefulSet", "1.16"),
          Map.entry("extensions/v1beta1 ReplicaSet", "1.16"),
          Map.entry("apps/v1beta1 ReplicaSet", "1.16"),
          Map.entry("apps/v1beta2 ReplicaSet", "1.16"),
          // v1.22
          Map.entry("admissionregistration.k8s.io/v1beta1 MutatingWebhookConfiguration", "1.22"),
          Map.entry("admissionregistration.k8s.io/v1beta1 ValidatingWebhookConfiguration", "1.22"),
          Map.entry("apiextensions.k8s.io/v1beta1 CustomResourceDefinition", "1.22"),
          Map.entry("apiregistration.k8s.io/v1beta1 APIService", "1.22"),
          Map.entry("authentication.k8s.io/v1beta1 TokenReview", "1.22"),
          Map.entry("authorization.k8s.io/v1beta1 SubjectAccessReview", "1.22"),
          Map.entry("authorization.k8s.io/v1beta1 LocalSubjectAccessReview", "1.22"),
          Map.entry("authorization.k8s.io/v1beta1 SelfSubjectAccessReview", "1.22"),
          Map.entry("certificates.k8s.io/v1beta1 CertificateSigningRequest", "1.22"),
          Map.entry("coordination.k8s.io/v1beta1 Lease", "1.22"),
          Map.entry("extensions/v1beta1 Ingress", "1.22"),
          Map.entry("networking.k8s.io/v1beta1 Ingress", "1.22"),
          Map.entry("networking.k8s.io/v1beta1 IngressClass", "1.22"),
          Map.entry("rbac.authorization.k8s.io/v1beta1 ClusterRole", "1.22"),
          Map.entry("rbac.authorization.k8s.io/v1beta1 ClusterRoleBinding", "1.22"),
          Map.entry("rbac.authorization.k8s.io/v1beta1 Role", "1.22"),
          Map.entry("rbac.authorization.k8s.io/v1beta1 RoleBinding", "1.22"),
          Map.entry("scheduling.k8s.io/v1beta1 PriorityClass", "1.22"),
          Map.entry("storage.k8s.io/v1beta1 CSIDriver", "1.22"),
          Map.entry("storage.k8s.io/v1beta1 CSINode", "1.22"),
          Map.entry("storage.k8s.io/v1beta1 StorageClass", "1.22"),
          Map.entry("storage.k8s.io/v1beta1 VolumeAttachment", "1.22"),
          // v1.25
          Map.entry("batch/v1beta1 CronJob", "1.25"),
          Map.entry("discovery.k8s.io/v1beta1 EndpointSlice", "1.25"),
          Map.entry("events.k8s.io/v1beta1 Event", "1.25"),
          Map.entry("autoscaling/v2beta1 HorizontalPodAutoscaler", "1.25"),
          Map.entry("policy/v1beta1 PodDisruptionBudget", "1.25"),
          Map.entry("policy/v1beta1 PodSecurityPolicy", "1.25"),
          Map.entry("node.k8s.io/v1beta1 RuntimeClass", "1.25"),
          // v1.26
          Map.entry("flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema", "1.26"),
          Map.entry("flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration", "1.26"),
          Map.entry("autoscaling/v2beta2 HorizontalPodAutoscaler", "1.26"),
          // v1.27
          Map.entry("storage.k8s.io/v1beta1 CSIStorageCapacity", "1.27"),
          // v1.29
          Map.entry("flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema", "1.29"),
          Map.entry("flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration", "1.29"),
          // v1.32
          Map.entry("flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema", "1.32"),
          Map.entry("flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration", "1.32"));

  @Override
  public List<String> rules() {
    return List.of(REMOVED, MIN_KUBE);
  }

  @Override
  public void check(BundleView view, Findings out) {
    for (JsonNode o : view.objects()) {
      String key = Json.text(o, "apiVersion") + " " + Json.text(o, "kind");
      String version = REMOVED_IN.get(key);
      if (version != null) {
        out.add(
            new Finding(
                REMOVED,
                Category.PORTABILITY,
                Severity.ERROR,
                Json.describe(o),
                "apiVersion",
                Json.describe(o)
                    + " uses "
                    + Json.text(o, "apiVersion")
                    + ", removed in Kubernetes "
                    + version,
                version));
      }
    }
    if (view.csv() == null) {
      return;
    }
    String csv = Json.describe(view.csv());
    JsonNode spec = view.csv().path("spec").path("install").path("spec");
    for (String kind : List.of("permissions", "clusterPermissions")) {
      for (JsonNode perm : Json.array(spec, kind)) {
        List<JsonNode> rules = Json.array(perm, "rules");
        for (int i = 0; i < rules.size() && i < RbacRules.MAX_RULES; i++) {
          if (Json.strings(rules.get(i), "resources").contains("podsecuritypolicies")) {
            String field =
                "spec.install.spec."
                    + kind
                    + "["
                    + Json.text(perm, "serviceAccountName")
                    + "].rules["
                    + i
                    + "].resources";
            out.add(
                new Finding(
                    REMOVED,
                    Category.PORTABILITY,
                    Severity.ERROR,
                    csv,
                    field,
                    csv + " " + field + " names podsecuritypolicies, removed in Kubernetes 1.25",
                    "1.25"));
          }
        }
      }
    }
    if (Json.text(view.csv().path("spec"), "minKubeVersion") == null) {
      out.add(
          MIN_KUBE,
          Category.PORTABILITY,
          Severity.INFO,
          csv,
          "spec.minKubeVersion",
          csv + ": no spec.minKubeVersion, so clusters too old for the bundle are not refused");
    }
  }
}
