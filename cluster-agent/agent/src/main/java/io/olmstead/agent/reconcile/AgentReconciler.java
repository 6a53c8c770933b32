package io.olmstead.agent.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.k8s.ClusterFacts;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's reconcile loop: desired subscriptions and approvals come in (from the channel),
 * informers on what the agent manages ({@link ManagedInformers}), re-queues while an install
 * settles or a catalog is awaited, and a periodic resync feed a de-duplicating queue keyed by
 * namespace, and worker threads run one {@link NamespacePass} per key, never two for the same
 * namespace at once.
 */
public final class AgentReconciler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AgentReconciler.class);
  private static final Duration SETTLE_REQUEUE = Duration.ofMillis(500);

  /**
   * How soon a bundle that failed to unpack is asked for again (the control plane may have been
   * told to retry).
   */
  static final Duration UNPACK_FAILED_REQUEUE = Duration.ofSeconds(10);

  private static final Duration ERROR_REQUEUE = Duration.ofSeconds(2);
  private static final Duration CATALOG_RETRY_MIN = Duration.ofSeconds(1);
  private static final Duration CATALOG_RETRY_MAX = Duration.ofMinutes(1);

  private final String clusterName;
  private final ReconcilerOptions options;
  private final WorkQueue queue;
  private final StatusBoard board;
  private final NamespacePass pass;
  private final Map<String, List<SubscriptionToReconcile>> desiredByNamespace =
      new ConcurrentHashMap<>();
  private final Map<String, String> approvals = new ConcurrentHashMap<>();
  private final ManagedInformers informers;
  private final ReconcileLoop loop;
  private final CatalogRetry catalogRetry;
  private final PassCounts passCounts = new PassCounts();

  /**
   * Per namespace: 2 s doubling to 1 min while the cluster's API gives no answer (paused or down
   * guest).
   */
  private final CatalogRetry unreachableRetry =
      new CatalogRetry(ERROR_REQUEUE, Duration.ofMinutes(1));

  private final GuestReachability reach;
  private final PreflightRunner preflights;
  private volatile long generation = -1;
  private volatile boolean running;
  private boolean closed;

  /**
   * A reconciler with threads of its own ({@code options.workers()} workers, a resync timer, a
   * preflight thread).
   */
  public AgentReconciler(
      String clusterName,
      KubernetesClient client,
      CatalogProvider catalogs,
      StatusSink sink,
      ReconcilerOptions options) {
    this(
        clusterName,
        client,
        catalogs,
        sink,
        options,
        new OwnThreadsLoop(clusterName, options.workers()),
        new GuestReachability(clusterName));
  }

  /**
   * A reconciler on {@code shared} threads (a pool replica's, shared by every cluster it serves):
   * its work runs one task at a time, in order, so no two passes of this cluster run at once;
   * {@code options.workers()} is unused.
   */
  public AgentReconciler(
      String clusterName,
      KubernetesClient client,
      CatalogProvider catalogs,
      StatusSink sink,
      ReconcilerOptions options,
      ReconcileThreads shared) {
    this(clusterName, client, catalogs, sink, options, shared, new GuestReachability(clusterName));
  }

  /**
   * As above, with the cluster's reachability carried over from the loop a rebuilt guest client
   * replaces.
   */
  public AgentReconciler(
      String clusterName,
      KubernetesClient client,
      CatalogProvider catalogs,
      StatusSink sink,
      ReconcilerOptions options,
      ReconcileThreads shared,
      GuestReachability reach) {
    this(clusterName, client, catalogs, sink, options, new SharedThreadsLoop(shared), reach);
  }

  private AgentReconciler(
      String clusterName,
      KubernetesClient client,
      CatalogProvider catalogs,
      StatusSink sink,
      ReconcilerOptions options,
      ReconcileLoop loop,
      GuestReachability reach) {
    this.clusterName = clusterName;
    this.options = options;
    this.loop = loop;
    this.queue = loop.queue();
    this.board = new StatusBoard(sink);
    ResourceKinds kinds = new ResourceKinds();
    this.informers = new ManagedInformers(client, kinds, queue::add);
    // Started by the first pass that finds the OperatorCondition CRD served; a no-op while
    // informers are off.
    this.pass =
        new NamespacePass(
            new ResourceOperator(client, kinds),
            catalogs,
            board,
            approvals::get,
            informers::watchOperatorConditions);
    Duration retryMax =
        options.resync().compareTo(CATALOG_RETRY_MAX) < 0 ? options.resync() : CATALOG_RETRY_MAX;
    this.catalogRetry = new CatalogRetry(CATALOG_RETRY_MIN, retryMax);
    this.reach = reach;
    ResourceOperator preflightResources = new ResourceOperator(client, new ResourceKinds());
    this.preflights =
        new PreflightRunner(
            clusterName,
            new PreflightCheck(
                preflightResources, catalogs, () -> ClusterFacts.kubernetesVersion(client)),
            this::desiredSubscription,
            loop.preflights());
  }

  /**
   * Preflight requests of a {@code desired} message: each one not answered yet is checked off the
   * reconcile workers (one at a time) and its verdict handed to {@code answer}.
   */
  public void preflight(List<PreflightRequest> requests, Consumer<Preflight> answer) {
    preflights.submit(requests, answer);
  }

  /**
   * The channel reconnected: answers sent before may have been lost, so requests are answered
   * again.
   */
  public void forgetPreflights() {
    preflights.forget();
  }

  private SubscriptionToReconcile desiredSubscription(String name) {
    for (List<SubscriptionToReconcile> subs : desiredByNamespace.values()) {
      for (SubscriptionToReconcile s : subs) {
        if (s.name().equals(name)) {
          return s;
        }
      }
    }
    return null;
  }

  /**
   * Starts workers and the periodic resync, then the informers; namespaces already holding managed
   * objects are queued. Workers come first so a pass never waits for the informers' first list
   * (they only turn changes into work). When the informers or the first listing fail (the API
   * cannot be reached), this throws and may be called again: what started stays started, and the
   * next call retries the rest.
   */
  public synchronized void start() throws ResourceException {
    if (closed) {
      return;
    }
    if (!running) {
      running = true;
      loop.start(this::reconcile, this::enqueueAll, options.resync());
      LOG.info(
          "cluster {}: reconcile loop started ({}, resync {})",
          clusterName,
          loop instanceof SharedThreadsLoop ? "shared threads" : options.workers() + " workers",
          options.resync());
    }
    try {
      if (options.informers()) {
        informers.start();
      }
      pass.observer().managedNamespaces().forEach(queue::add);
    } catch (ResourceException | RuntimeException e) {
      if (GuestReachability.noAnswer(e)) {
        guestUnreachable(e);
      }
      throw e;
    }
    reach.reachable();
  }

  /**
   * The cluster's API gave no answer (paused or stopped guest): logged once per outage, and every
   * desired subscription reported once as {@code Pending/GuestUnreachable} (its installed bundle
   * kept); passes back off.
   */
  public void guestUnreachable(Throwable cause) {
    reach.unreachable(cause);
    desiredByNamespace.keySet().forEach(this::reportUnreachable);
  }

  private void reportUnreachable(String namespace) {
    for (SubscriptionToReconcile sub : desiredByNamespace.getOrDefault(namespace, List.of())) {
      Optional<SubscriptionStatus> last = board.get(sub.name());
      board.publish(
          new SubscriptionStatus(
              sub.name(),
              sub.namespace(),
              last.map(SubscriptionStatus::installedBundle).orElse(null),
              last.map(SubscriptionStatus::installedVersion).orElse(null),
              null,
              null,
              "Pending",
              GuestReachability.REASON,
              GuestReachability.MESSAGE,
              List.of(),
              generation));
    }
  }

  /**
   * Replaces the desired subscriptions (a {@code desired} message); namespaces whose set changed
   * are reconciled.
   */
  public void setDesired(long newGeneration, List<SubscriptionToReconcile> subscriptions) {
    Map<String, List<SubscriptionToReconcile>> next = new LinkedHashMap<>();
    for (SubscriptionToReconcile sub : subscriptions) {
      next.computeIfAbsent(sub.namespace(), k -> new ArrayList<>()).add(sub);
    }
    Set<String> changed = new LinkedHashSet<>();
    for (String ns : union(next.keySet(), desiredByNamespace.keySet())) {
      List<SubscriptionToReconcile> now = next.getOrDefault(ns, List.of());
      if (!now.equals(desiredByNamespace.getOrDefault(ns, List.of()))) {
        changed.add(ns);
      }
    }
    desiredByNamespace.keySet().retainAll(next.keySet());
    desiredByNamespace.putAll(next);
    boolean first = generation < 0;
    generation = newGeneration;
    if (first) {
      enqueueAll(); // namespaces held back until now, including ones whose subscriptions were
      // removed while down
    } else {
      changed.forEach(queue::add);
    }
  }

  /**
   * A manual approval for exactly {@code bundle} of {@code subscription}; a different bundle is not
   * approved.
   */
  public void approve(String subscription, String bundle) {
    approvals.put(subscription, bundle);
    desiredByNamespace.forEach(
        (ns, subs) -> {
          if (subs.stream().anyMatch(s -> s.name().equals(subscription))) {
            queue.add(ns);
          }
        });
  }

  /**
   * Catalogs may be reachable again (the channel reconnected): namespaces waiting for one are
   * retried now rather than after their backoff. A catalog whose content changed arrives as a new
   * digest in the desired state instead.
   */
  public void catalogsChanged() {
    for (String namespace : catalogRetry.waiting()) {
      catalogRetry.reset(namespace);
      queue.add(namespace);
    }
  }

  /** The generation of the desired state last given. */
  public long generation() {
    return generation;
  }

  /** The latest reported status of every subscription. */
  public Map<String, SubscriptionStatus> statuses() {
    return board.snapshot();
  }

  public Optional<SubscriptionStatus> status(String subscription) {
    return board.get(subscription);
  }

  /** Queued or in-progress namespaces (0 = idle). */
  public int queueDepth() {
    return queue.depth();
  }

  /**
   * Passes over {@code namespace} started and finished so far (a pass held back while no desired
   * state has come, or one that failed, counts too); zero for a namespace neither desired nor
   * holding managed objects at the last resync. Read-only: tests await {@code finished} reaching a
   * {@code started} read earlier plus n to know that n passes ran after that read.
   */
  public Passes passes(String namespace) {
    return passCounts.of(namespace);
  }

  /**
   * Passes over one namespace started and finished (those of one namespace never overlap, so at
   * most one more started than finished).
   */
  public record Passes(long started, long finished) {}

  private void reconcile(String namespace) {
    passCounts.started(namespace);
    try {
      reconcileNamespace(namespace);
    } finally {
      passCounts.finished(namespace); // before queue.done: the next pass starts after this count
      queue.done(namespace);
    }
  }

  private void reconcileNamespace(String namespace) {
    if (generation < 0) {
      // No desired state yet (e.g. just restarted, channel not connected): an empty set would
      // uninstall everything.
      return;
    }
    try {
      PassOutcome outcome =
          pass.run(namespace, desiredByNamespace.getOrDefault(namespace, List.of()));
      unreachableRetry.reset(namespace);
      reach.reachable();
      if (outcome == PassOutcome.WAITING_FOR_CATALOG) {
        Duration delay = catalogRetry.next(namespace);
        LOG.debug(
            "cluster {}: namespace {} waits for a catalog, retrying in {}",
            clusterName,
            namespace,
            delay);
        queue.addAfter(namespace, delay);
      } else {
        catalogRetry.reset(namespace);
        if (outcome == PassOutcome.SETTLING) {
          queue.addAfter(namespace, SETTLE_REQUEUE);
        } else if (outcome == PassOutcome.BACKING_OFF) {
          queue.addAfter(namespace, RestoreBackoff.FIRST);
        } else if (outcome == PassOutcome.BUNDLE_UNPACK_FAILED) {
          queue.addAfter(namespace, UNPACK_FAILED_REQUEUE);
        }
      }
    } catch (ResourceException | RuntimeException e) {
      if (GuestReachability.noAnswer(e)) {
        reach.unreachable(e);
        reportUnreachable(namespace);
        queue.addAfter(namespace, unreachableRetry.next(namespace));
        return;
      }
      if (e instanceof RuntimeException && running) {
        LOG.error(
            "cluster {}: pass over namespace {} failed unexpectedly, retrying",
            clusterName,
            namespace,
            e);
      } else if (running) {
        LOG.warn(
            "cluster {}: pass over namespace {} failed, retrying: {}",
            clusterName,
            namespace,
            e.getMessage());
      }
      queue.addAfter(namespace, ERROR_REQUEUE);
    }
  }

  private void enqueueAll() {
    Set<String> namespaces = new LinkedHashSet<>(desiredByNamespace.keySet());
    namespaces.forEach(queue::add);
    try {
      Set<String> managed = pass.observer().managedNamespaces();
      managed.forEach(queue::add);
      namespaces.addAll(managed);
      passCounts.retain(namespaces);
    } catch (ResourceException | RuntimeException e) {
      LOG.warn(
          "cluster {}: resync could not list managed namespaces: {}", clusterName, e.getMessage());
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    running = false;
    preflights.close();
    informers.close();
    loop.close();
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new LinkedHashSet<>(a);
    all.addAll(b);
    return all;
  }
}
