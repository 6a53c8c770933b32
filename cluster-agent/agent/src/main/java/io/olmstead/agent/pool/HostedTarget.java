package io.olmstead.agent.pool;

/**
 * A hosted cluster assigned to this pool replica: its Olmstead cluster name, its HostedCluster's
 * namespace and name (where {@code <name>-admin-kubeconfig} is) and its hosted control plane
 * namespace (where {@code service-network-admin-kubeconfig} is).
 */
public record HostedTarget(
    String cluster, String namespace, String name, String controlPlaneNamespace) {}
