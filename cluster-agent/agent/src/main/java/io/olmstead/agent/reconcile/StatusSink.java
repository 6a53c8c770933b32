package io.olmstead.agent.reconcile;

/**
 * Where the reconcile loop reports; the channel client implements it (status is state: newest
 * wins).
 */
public interface StatusSink {
  /**
   * The current state of one subscription (called on every change, from reconcile worker threads).
   */
  void publish(SubscriptionStatus status);

  /** The subscription was uninstalled and is no longer reported. */
  void removed(String subscription);
}
