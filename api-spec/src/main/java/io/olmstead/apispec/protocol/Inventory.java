package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Agent → control plane: what runs on the cluster, for the fleet inventory and chargeback. Sent at
 * most every 60 s and only when it changed; each report replaces the cluster's previous one. {@code
 * truncated} says the agent left operators, custom resource kinds or stacks out to stay within its
 * bounds ({@link #MAX_OPERATORS} and the others).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Inventory(
    int protocol, String id, String cluster, List<Operator> operators, Boolean truncated)
    implements AgentMessage {
  public static final String TYPE = "inventory";

  /** Bounds the schema enforces (inventory.json); the agent cuts its report to them. */
  public static final int MAX_OPERATORS = 200;

  public static final int MAX_CUSTOM_RESOURCE_KINDS = 64;
  public static final int MAX_STACKS = 100;

  /** A custom resource count above this is absurd (the schema refuses it). */
  public static final long MAX_COUNT = 100_000_000L;

  /**
   * One installed operator: a subscription of the fleet or a dependency the agent installed for one
   * ({@code dependencyOf} names that subscription).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Operator(
      String subscription,
      String namespace,
      @JsonProperty("package") String packageName,
      String bundle,
      String version,
      String phase,
      String reason,
      String dependencyOf,
      List<CustomResources> customResources,
      Pods pods,
      List<Stack> stacks) {}

  /**
   * The number of custom resources of one owned CRD ({@code name} is the CRD's name); {@code
   * capped} when the agent stopped counting at its bound.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CustomResources(String name, String kind, long count, Boolean capped) {}

  /**
   * Pods, their summed requests and limits, restarts, and actual use when the cluster serves
   * metrics.k8s.io.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Pods(
      int count, long restarts, Resources requests, Resources limits, Resources usage) {}

  /** CPU in millicores and memory in bytes. */
  public record Resources(long cpuMillis, long memoryBytes) {}

  /**
   * An application stack: one custom resource and the pods it owns transitively (owner references,
   * or KubePlus relationship annotations on its CRD); the chargeback unit.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Stack(String kind, String namespace, String name, Pods pods) {}
}
