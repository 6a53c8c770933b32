package io.olmstead.agent.inventory;

import io.olmstead.apispec.protocol.Inventory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The objects of a namespace that can stand between a custom resource and its pods (pods,
 * ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs) with their owner references; answers
 * which pods an object owns transitively. Pure: built from compact nodes, never from full objects.
 */
final class OwnerGraph {
  /**
   * Owner chains longer than this are not followed (a CR → Deployment → ReplicaSet → Pod chain is
   * 3).
   */
  static final int MAX_DEPTH = 8;

  /**
   * One object: its kind, name, owners' uids, the relationship keys it carries, and, for a pod, its
   * resources.
   */
  record Node(
      String uid,
      String kind,
      String name,
      List<String> owners,
      Map<String, String> labels,
      Map<String, String> annotations,
      PodFacts pod) {}

  /** A running pod's requests, limits and restarts. */
  record PodFacts(
      String name,
      long cpuRequest,
      long memoryRequest,
      long cpuLimit,
      long memoryLimit,
      long restarts) {}

  private final Map<String, Node> nodes = new HashMap<>();
  private final Map<String, List<String>> children = new HashMap<>();

  void add(Node node) {
    if (nodes.putIfAbsent(node.uid(), node) == null) {
      for (String owner : node.owners()) {
        children.computeIfAbsent(owner, k -> new ArrayList<>()).add(node.uid());
      }
    }
  }

  /**
   * The pods {@code rootUids} own through owner references (each pod once; a root that is a pod
   * counts itself).
   */
  List<PodFacts> podsOwnedBy(Collection<String> rootUids) {
    Set<String> seen = new HashSet<>();
    List<PodFacts> pods = new ArrayList<>();
    Deque<String[]> work = new ArrayDeque<>();
    rootUids.forEach(uid -> work.add(new String[] {uid, "0"}));
    while (!work.isEmpty()) {
      String[] next = work.poll();
      String uid = next[0];
      int depth = Integer.parseInt(next[1]);
      if (!seen.add(uid)) {
        continue;
      }
      Node node = nodes.get(uid);
      if (node != null && node.pod() != null) {
        pods.add(node.pod());
      }
      if (depth < MAX_DEPTH) {
        for (String child : children.getOrDefault(uid, List.of())) {
          work.add(new String[] {child, Integer.toString(depth + 1)});
        }
      }
    }
    return pods;
  }

  /** The uids of objects a relationship ties to the custom resource named {@code instance}. */
  Set<String> related(Relationship relationship, String instance) {
    Set<String> out = new LinkedHashSet<>();
    for (Node node : nodes.values()) {
      Map<String, String> values = relationship.label() ? node.labels() : node.annotations();
      if (relationship.kinds().contains(node.kind())
          && instance.equals(values.get(relationship.key()))) {
        out.add(node.uid());
      }
    }
    return out;
  }

  /**
   * The sums over {@code pods}; {@code usage} from metrics by pod name when the cluster serves
   * them, else null.
   */
  static Inventory.Pods sum(List<PodFacts> pods, Map<String, Inventory.Resources> usage) {
    long cpu = 0;
    long memory = 0;
    long cpuLimit = 0;
    long memoryLimit = 0;
    long restarts = 0;
    long usedCpu = 0;
    long usedMemory = 0;
    for (PodFacts p : pods) {
      cpu += p.cpuRequest();
      memory += p.memoryRequest();
      cpuLimit += p.cpuLimit();
      memoryLimit += p.memoryLimit();
      restarts += p.restarts();
      Inventory.Resources used = usage == null ? null : usage.get(p.name());
      if (used != null) {
        usedCpu += used.cpuMillis();
        usedMemory += used.memoryBytes();
      }
    }
    return new Inventory.Pods(
        pods.size(),
        restarts,
        new Inventory.Resources(cpu, memory),
        new Inventory.Resources(cpuLimit, memoryLimit),
        usage == null ? null : new Inventory.Resources(usedCpu, usedMemory));
  }
}
