package io.olmstead.agent.k8s;

/** What one resource operation did, in Strimzi's terms. */
public record ApplyOutcome(Result result, String kind, String namespace, String name) {
  /** The effect on the cluster. */
  public enum Result {
    CREATED,
    PATCHED,
    DELETED,
    UNCHANGED,
    /**
     * The object differs but the write was held back (a drift restore backing off); a later pass
     * retries.
     */
    DEFERRED,
    /**
     * The object differs but is another writer's to keep (a CRD a newer install of the package
     * wrote).
     */
    KEPT
  }

  /** True when the cluster was written to. */
  public boolean changed() {
    return result != Result.UNCHANGED && result != Result.DEFERRED && result != Result.KEPT;
  }

  /** {@code Kind/name} or {@code Kind/namespace/name}, for messages. */
  public String ref() {
    return kind + "/" + (namespace == null || namespace.isEmpty() ? "" : namespace + "/") + name;
  }
}
