package io.olmstead.agent.reconcile;

/** What a {@link NamespacePass} leaves to do, which decides when the namespace is queued again. */
enum PassOutcome {
  /** Converged as far as it can: the next event or resync will do. */
  DONE,
  /** Something is still rolling out: look again shortly. */
  SETTLING,
  /**
   * A drift restore is held back by its backoff: look again when the shortest backoff has passed.
   */
  BACKING_OFF,
  /**
   * A subscription's catalog could not be had: retry with a growing delay rather than at the next
   * resync.
   */
  WAITING_FOR_CATALOG,
  /**
   * A bundle image failed to unpack on the control plane: look again after a while (an operator may
   * retry it there; the agent learns nothing else when that succeeds).
   */
  BUNDLE_UNPACK_FAILED
}
