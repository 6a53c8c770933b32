package io.olmstead.agent.k8s;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * What the API server serves, read from its discovery documents ({@code /api/v1}, {@code
 * /apis/GROUP/VERSION}) and {@code /version}: the answers OLM's requirement and install-plan checks
 * read. Blocking: worker threads only.
 */
public final class ServedApis {
  private final KubernetesClient client;

  ServedApis(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Whether discovery lists {@code kind} under {@code apiVersion} ({@code v1}, {@code
   * group/version}).
   */
  public boolean served(String apiVersion, String kind) throws ResourceException {
    try {
      APIResourceList resources = client.getApiResources(apiVersion);
      return resources != null
          && resources.getResources() != null
          && resources.getResources().stream()
              .anyMatch(r -> kind.equals(r.getKind()) && !r.getName().contains("/"));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false; // the group version is not served at all
      }
      throw new ResourceException(
          "could not read API discovery of " + apiVersion + ": " + e.getMessage(), e.getCode(), e);
    }
  }

  /** The API server's {@code gitVersion} ({@code v1.31.0}), or null when it cannot be read. */
  public String serverVersion() {
    return ClusterFacts.kubernetesVersion(client);
  }
}
