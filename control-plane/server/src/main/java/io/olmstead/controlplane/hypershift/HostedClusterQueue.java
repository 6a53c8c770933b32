package io.olmstead.controlplane.hypershift;

import io.olmstead.controlplane.hypershift.Decision.Kind;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The work {@link HostedClusterWatcher}'s events queue, and its handling: queued HostedClusters
 * ({@code hc:<key>}) are decided and applied in order, up to {@link #BATCH} per transaction (one by
 * one when a batch fails, so a broken object delays nothing but itself); a vanished clusterID
 * ({@code gone:<id>}) and the sweep are handled one at a time. Everything runs on the watcher's one
 * thread, never on an event loop. Skips and conflicts are logged when their reason changes, not on
 * every resync.
 */
final class HostedClusterQueue {
  /**
   * HostedClusters decided per transaction: bounded so one commit stays short (about seven
   * statements each).
   */
  static final int BATCH = 50;

  static final String SWEEP = "sweep";
  private static final Logger LOG = LoggerFactory.getLogger(HostedClusterWatcher.class);
  private static final long APPLY_TIMEOUT_SECONDS = 30;

  /** What the queue reads from the watcher's informers (and asks it to watch). */
  interface Source {
    /** The HostedCluster under {@code namespace/name}; null when unknown or not watching. */
    HostedCluster hostedCluster(String key);

    /** Every HostedCluster known; null unless watching and synced. */
    List<HostedCluster> synced();

    boolean kubeconfigPresent(HostedCluster hc);

    /** Starts watching the Secrets of a namespace holding HostedClusters (once per namespace). */
    void watchSecretsOf(String namespace);

    /**
     * Whether the Secrets of the namespace have been listed: until then a kubeconfig secret that
     * exists is not in the cache yet, and its HostedCluster waits (re-queued once they are) rather
     * than being reported without one.
     */
    boolean secretsListed(String namespace);
  }

  private final Source source;
  private final HostedStore store;
  private final HypershiftMetrics metrics;
  private final UpgradeGuard guard;
  private final Executor worker;
  private final Set<String> pending = new LinkedHashSet<>();
  private final Map<String, String> reported = new ConcurrentHashMap<>();

  HostedClusterQueue(
      Source source,
      HostedStore store,
      HypershiftMetrics metrics,
      UpgradeGuard guard,
      Executor worker) {
    this.source = source;
    this.store = store;
    this.metrics = metrics;
    this.guard = guard;
    this.worker = worker;
  }

  /**
   * Why the HostedCluster under {@code namespace/name} was last skipped or refused, or null when it
   * was not (or not decided yet).
   */
  String skipReason(String key) {
    return reported.get("hc:" + key);
  }

  void enqueue(String item) {
    synchronized (pending) {
      pending.add(item);
    }
    worker.execute(this::drain);
  }

  private void drain() {
    while (true) {
      List<String> batch = next();
      if (batch.isEmpty()) {
        return;
      }
      if (batch.get(0).startsWith("hc:")) {
        decide(batch);
        continue;
      }
      try {
        process(batch.get(0));
      } catch (Exception e) {
        metrics.failed("apply");
        LOG.warn("hypershift: {} not handled: {}", batch.get(0), e.toString());
      }
    }
  }

  /**
   * The next run of up to {@value #BATCH} queued HostedClusters in order, or a single other item
   * (sweep, gone).
   */
  private List<String> next() {
    List<String> batch = new ArrayList<>();
    synchronized (pending) {
      Iterator<String> queued = pending.iterator();
      while (queued.hasNext() && batch.size() < BATCH) {
        String item = queued.next();
        boolean hostedCluster = item.startsWith("hc:");
        if (!batch.isEmpty() && !hostedCluster) {
          break;
        }
        queued.remove();
        batch.add(item);
        if (!hostedCluster) {
          break;
        }
      }
    }
    return batch;
  }

  /**
   * Decides a run of HostedClusters in one transaction (a burst turning Available at once is one
   * commit); when that fails, one by one, so a HostedCluster that cannot be applied fails alone.
   */
  private void decide(List<String> items) {
    List<String> keys = new ArrayList<>();
    List<HostedStore.Input> inputs = new ArrayList<>();
    for (String item : items) {
      try {
        HostedCluster hc = source.hostedCluster(item.substring(3));
        if (hc != null) {
          source.watchSecretsOf(hc.namespace());
          if (!source.secretsListed(hc.namespace())) {
            continue;
          }
          inputs.add(
              new HostedStore.Input(
                  hc, source.kubeconfigPresent(hc), d -> !d.reason().equals(reported.get(item))));
          keys.add(item);
        }
      } catch (RuntimeException e) {
        metrics.failed("apply");
        LOG.warn("hypershift: {} not handled: {}", item, e.toString());
      }
    }
    List<Decision> decisions = null;
    if (inputs.size() > 1) {
      try {
        decisions = await(store.reconcileAll(inputs, Instant.now()));
      } catch (Exception e) {
        LOG.debug(
            "hypershift: a batch of {} failed ({}); deciding them one by one",
            inputs.size(),
            e.toString());
      }
    }
    for (int i = 0; i < inputs.size(); i++) {
      HostedStore.Input input = inputs.get(i);
      try {
        Decision decision =
            decisions != null
                ? decisions.get(i)
                : await(
                    store.reconcile(
                        input.hc(), input.kubeconfigPresent(), Instant.now(), input.fresh()));
        decided(keys.get(i), input.hc(), decision);
      } catch (Exception e) {
        metrics.failed("apply");
        LOG.warn("hypershift: {} not handled: {}", keys.get(i), e.toString());
      }
    }
  }

  private void decided(String item, HostedCluster hc, Decision decision) throws Exception {
    report(item, decision);
    if (decision.kind() == Kind.ENROLL
        || decision.kind() == Kind.UPDATE
        || decision.kind() == Kind.UNCHANGED) {
      await(guard.check(decision.cluster(), hc));
    } else {
      guard.clear(decision.cluster());
    }
  }

  private void process(String item) throws Exception {
    if (item.equals(SWEEP)) {
      sweep();
      metrics.swept();
    } else if (item.startsWith("gone:")) {
      Decision gone = await(store.gone(item.substring("gone:".length())));
      report(item, gone);
      guard.clear(gone.cluster());
    }
  }

  /**
   * Retires the clusters of live clusterIDs no HostedCluster carries any more (missed deletions,
   * restarts).
   */
  private void sweep() throws Exception {
    List<HostedCluster> all = source.synced();
    if (all == null) {
      return;
    }
    metrics.hostedClusters(all.size());
    Set<String> present = new HashSet<>();
    all.forEach(hc -> present.add(hc.clusterId()));
    for (String id : await(store.liveIds())) {
      if (!present.contains(id)) {
        report("gone:" + id, await(store.gone(id)));
      }
    }
  }

  /**
   * Logs (and counts) a decision; skips and conflicts are logged when their reason changes, not on
   * every resync.
   */
  private void report(String item, Decision decision) {
    metrics.decided(decision);
    if (decision.kind() == Kind.IGNORE || decision.kind() == Kind.CONFLICT) {
      if (!decision.reason().equals(reported.put(item, decision.reason()))) {
        LOG.info(
            "hypershift: {} {} ({}): {}",
            decision.kind().name().toLowerCase(Locale.ROOT),
            decision.cluster() == null ? item : decision.cluster(),
            decision.reason(),
            decision.detail());
      }
    } else if (decision.kind() != Kind.UNCHANGED) {
      reported.remove(item);
      LOG.info(
          "hypershift: cluster {} {} ({})",
          decision.cluster(),
          decision.kind().name().toLowerCase(Locale.ROOT),
          decision.reason());
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future
        .toCompletionStage()
        .toCompletableFuture()
        .get(APPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }
}
