package io.olmstead.agent.inventory;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.ContainerMetrics;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.PodMetricsList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.olmstead.apispec.protocol.Inventory;
import java.util.HashMap;
import java.util.Map;

/**
 * Actual CPU and memory of pods from {@code metrics.k8s.io} (metrics-server), where the cluster
 * serves that API; elsewhere usage is absent from the report, not an error.
 */
final class PodMetrics {
  static final String GROUP = "metrics.k8s.io";

  private PodMetrics() {}

  /** Whether the API server lists the metrics group (discovery); false when discovery fails. */
  static boolean served(KubernetesClient client) {
    try {
      APIGroupList groups = client.getApiGroups();
      return groups != null
          && groups.getGroups() != null
          && groups.getGroups().stream().map(APIGroup::getName).anyMatch(GROUP::equals);
    } catch (KubernetesClientException e) {
      return false;
    }
  }

  /** Usage by pod name in {@code namespace}, or null when it cannot be read. */
  static Map<String, Inventory.Resources> usage(KubernetesClient client, String namespace) {
    try {
      PodMetricsList list = client.top().pods().metrics(namespace);
      Map<String, Inventory.Resources> out = new HashMap<>();
      list.getItems().stream()
          .limit(InventoryBounds.OBJECTS_PER_KIND)
          .forEach(
              pm -> {
                long cpu = 0;
                long memory = 0;
                for (ContainerMetrics c : pm.getContainers()) {
                  cpu += Quantities.cpuMillis(c.getUsage());
                  memory += Quantities.memoryBytes(c.getUsage());
                }
                out.put(pm.getMetadata().getName(), new Inventory.Resources(cpu, memory));
              });
      return out;
    } catch (KubernetesClientException e) {
      return null;
    }
  }
}
