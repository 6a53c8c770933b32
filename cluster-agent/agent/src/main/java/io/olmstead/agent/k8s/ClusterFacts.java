package io.olmstead.agent.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.olmstead.apispec.protocol.Facts;

/**
 * What the agent tells the control plane about its cluster when it enrolls and connects. Each fact
 * is optional: one the agent may not read (forbidden) or the cluster does not have (no OpenShift)
 * is left out, never fatal.
 */
public final class ClusterFacts {
  /**
   * OpenShift's cluster-scoped singleton {@code ClusterVersion/version}; addressed without API
   * discovery.
   */
  static final ResourceDefinitionContext CLUSTER_VERSION =
      new ResourceDefinitionContext.Builder()
          .withGroup("config.openshift.io")
          .withVersion("v1")
          .withKind("ClusterVersion")
          .withPlural("clusterversions")
          .withNamespaced(false)
          .build();

  private static final long PAGE = 500;

  private ClusterFacts() {}

  /** The facts of the cluster {@code client} talks to, for an agent running in {@code mode}. */
  public static Facts of(KubernetesClient client, String mode) {
    return new Facts(
        kubernetesVersion(client),
        openshiftVersion(client),
        nodes(client),
        mode,
        OlmPresence.detected(client));
  }

  /** The API server's version ({@code v1.31.0}), or null when it cannot be read. */
  public static String kubernetesVersion(KubernetesClient client) {
    try {
      return client.getKubernetesVersion().getGitVersion();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * The number of nodes, counted page by page so a large cluster is not listed in one response;
   * null if unknown.
   */
  static Integer nodes(KubernetesClient client) {
    try {
      int count = 0;
      String next = null;
      do {
        NodeList page =
            client
                .nodes()
                .list(new ListOptionsBuilder().withLimit(PAGE).withContinue(next).build());
        count += page.getItems().size();
        next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
      } while (next != null && !next.isEmpty());
      return count;
    } catch (RuntimeException e) {
      return null; // forbidden, or the API answered something unexpected
    }
  }

  /**
   * The version OpenShift is at or moving to ({@code status.desired.version}); null on other
   * distributions.
   */
  static String openshiftVersion(KubernetesClient client) {
    try {
      GenericKubernetesResource version =
          client.genericKubernetesResources(CLUSTER_VERSION).withName("version").get();
      Object desired = version == null ? null : version.get("status", "desired", "version");
      return desired instanceof String text && !text.isBlank() ? text : null;
    } catch (RuntimeException e) {
      return null; // config.openshift.io is not served (404) or not readable (403)
    }
  }
}
