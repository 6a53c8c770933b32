package io.olmstead.agent.reconcile;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Which threads run one {@link AgentReconciler}'s work: its own ({@link OwnThreadsLoop}, an agent
 * serving one cluster) or a lane on threads shared by every cluster of a pool replica ({@link
 * SharedThreadsLoop}).
 */
interface ReconcileLoop extends AutoCloseable {
  /** The queue of namespaces to reconcile. */
  WorkQueue queue();

  /** Starts running {@code pass} for queued namespaces and {@code resync} every {@code period}. */
  void start(Consumer<String> pass, Runnable resync, Duration period);

  /** Where preflight checks run (they read the API server, off the channel's event loop). */
  Executor preflights();

  /** Whether started and not closed. */
  boolean running();

  /** Stops everything it runs; a pass under way finishes. */
  @Override
  void close();
}
