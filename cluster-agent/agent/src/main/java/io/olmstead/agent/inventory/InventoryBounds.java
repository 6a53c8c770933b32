package io.olmstead.agent.inventory;

import io.olmstead.apispec.protocol.Inventory;

/**
 * How much the agent looks at and reports, so that collecting an inventory takes bounded time and
 * memory on any cluster: beyond a bound the report says {@code truncated} (or a count says {@code
 * capped}).
 */
public final class InventoryBounds {
  /** Operators reported (the protocol's bound). */
  public static final int OPERATORS = Inventory.MAX_OPERATORS;

  /** Owned CRDs counted per operator (the protocol's bound). */
  public static final int CRDS_PER_OPERATOR = Inventory.MAX_CUSTOM_RESOURCE_KINDS;

  /** Custom resources per page when counting; one page is all that is held at a time. */
  public static final int PAGE = 100;

  /**
   * Custom resources counted per CRD at most (when the API server does not say how many remain).
   */
  public static final long COUNT_CAP = 100_000;

  /**
   * Custom resources whose pods are looked for (application stacks), per operator and per report.
   */
  public static final int STACK_CRS_PER_OPERATOR = 100;

  public static final int STACK_CRS = 2_000;

  /** Stacks reported per operator (the protocol's bound); those with pods only. */
  public static final int STACKS_PER_OPERATOR = Inventory.MAX_STACKS;

  /** Namespaces whose pods and workloads are read per report. */
  public static final int NAMESPACES = 100;

  /**
   * Objects of one kind read per namespace (pods, ReplicaSets, Deployments, StatefulSets,
   * DaemonSets, Jobs).
   */
  public static final int OBJECTS_PER_KIND = 5_000;

  /** The encoded report at most; stacks are dropped (largest operators first) to fit. */
  public static final int REPORT_BYTES = 256 * 1024;

  private InventoryBounds() {}
}
