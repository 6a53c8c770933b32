package io.olmstead.agent.inventory;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads one namespace's pods and the workloads between them and their owners into an {@link
 * OwnerGraph}, keeping of each object only its uid, kind, name, owners, the label and annotation
 * values relationships ask for, and a running pod's requests, limits and restarts. At most {@link
 * InventoryBounds#OBJECTS_PER_KIND} objects of each kind.
 */
final class NamespaceScan {
  /** The graph and whether some kind had more objects than were read. */
  record Result(OwnerGraph graph, boolean truncated) {}

  private NamespaceScan() {}

  static Result scan(KubernetesClient client, String ns, Set<String> relationKeys) {
    OwnerGraph graph = new OwnerGraph();
    boolean truncated = false;
    truncated |= read(o -> client.pods().inNamespace(ns).list(o), "Pod", graph, relationKeys);
    truncated |=
        read(
            o -> client.apps().replicaSets().inNamespace(ns).list(o),
            "ReplicaSet",
            graph,
            relationKeys);
    truncated |=
        read(
            o -> client.apps().deployments().inNamespace(ns).list(o),
            "Deployment",
            graph,
            relationKeys);
    truncated |=
        read(
            o -> client.apps().statefulSets().inNamespace(ns).list(o),
            "StatefulSet",
            graph,
            relationKeys);
    truncated |=
        read(
            o -> client.apps().daemonSets().inNamespace(ns).list(o),
            "DaemonSet",
            graph,
            relationKeys);
    truncated |=
        read(o -> client.batch().v1().jobs().inNamespace(ns).list(o), "Job", graph, relationKeys);
    return new Result(graph, truncated);
  }

  private static <T extends HasMetadata> boolean read(
      Function<ListOptions, ? extends KubernetesResourceList<T>> list,
      String kind,
      OwnerGraph graph,
      Set<String> relationKeys) {
    return Pager.each(
            list,
            InventoryBounds.PAGE * 5,
            InventoryBounds.OBJECTS_PER_KIND,
            false,
            object -> {
              ObjectMeta meta = object.getMetadata();
              if (meta == null || meta.getUid() == null) {
                return;
              }
              OwnerGraph.PodFacts pod = null;
              if (object instanceof Pod p) {
                String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
                if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                  return; // finished pods hold no resources
                }
                pod = facts(p);
              }
              List<String> owners =
                  meta.getOwnerReferences() == null
                      ? List.of()
                      : meta.getOwnerReferences().stream()
                          .map(OwnerReference::getUid)
                          .filter(u -> u != null)
                          .toList();
              graph.add(
                  new OwnerGraph.Node(
                      meta.getUid(),
                      kind,
                      meta.getName(),
                      owners,
                      subset(meta.getLabels(), relationKeys),
                      subset(meta.getAnnotations(), relationKeys),
                      pod));
            })
        .capped();
  }

  static OwnerGraph.PodFacts facts(Pod pod) {
    long cpu = 0;
    long memory = 0;
    long cpuLimit = 0;
    long memoryLimit = 0;
    if (pod.getSpec() != null && pod.getSpec().getContainers() != null) {
      for (var container : pod.getSpec().getContainers()) {
        ResourceRequirements r = container.getResources();
        if (r != null) {
          cpu += Quantities.cpuMillis(r.getRequests());
          memory += Quantities.memoryBytes(r.getRequests());
          cpuLimit += Quantities.cpuMillis(r.getLimits());
          memoryLimit += Quantities.memoryBytes(r.getLimits());
        }
      }
    }
    long restarts = 0;
    if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
      for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
        restarts += s.getRestartCount() == null ? 0 : Math.max(0, s.getRestartCount());
      }
    }
    return new OwnerGraph.PodFacts(
        pod.getMetadata().getName(), cpu, memory, cpuLimit, memoryLimit, restarts);
  }

  private static Map<String, String> subset(Map<String, String> values, Set<String> keys) {
    if (values == null || keys.isEmpty()) {
      return Map.of();
    }
    Map<String, String> out = new HashMap<>();
    for (String key : keys) {
      String value = values.get(key);
      if (value != null) {
        out.put(key, value);
      }
    }
    return out;
  }
}
