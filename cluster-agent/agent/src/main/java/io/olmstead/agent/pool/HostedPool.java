package io.olmstead.agent.pool;

import io.olmstead.agent.reconcile.GuestReachability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hosted clusters one pool replica serves: starts a {@link HostedAgent} for each cluster the
 * control plane hands over, stops it when released, and every {@code check} reads each one's
 * kubeconfig Secret again (on its own thread): a changed (rotated) kubeconfig rebuilds that guest's
 * client and reconcile loop with the same credential (no re-enrollment). A cluster whose kubeconfig
 * cannot be found yet is kept and tried again at the next check; one whose guest API does not
 * answer is served anyway (connected, retried by its {@link HostedAgent} with bounded backoff). All
 * changes run on one thread, in order, and none of them waits for an API: finding a cluster's
 * kubeconfig (a Secret read on the management API, then a reachability probe of the guest, up to
 * several seconds) runs on {@value #RESOLVERS} resolver threads, and its result comes back to the
 * ordering thread, which drops it when the cluster was released or handed over again meanwhile.
 * Nothing here runs on an event loop.
 */
final class HostedPool implements AutoCloseable, PoolChannel.Served {
  private static final Logger LOG = LoggerFactory.getLogger(HostedPool.class);

  private final HostedAgent.Shared shared;
  private final GuestKubeconfigs kubeconfigs;
  private final Map<String, HostedAgent> agents = new ConcurrentHashMap<>();
  // handed over but not started yet (no kubeconfig, guest down): the credential waits here, in
  // memory only
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
  // per served cluster, across rebuilds of its guest client (rotated kubeconfig): one outage is
  // logged once
  private final Map<String, GuestReachability> reachability = new ConcurrentHashMap<>();
  // the kubeconfig being found for a cluster (off the ordering thread): a newer start, a release or
  // close drops it
  private final Map<String, Object> resolving = new ConcurrentHashMap<>();
  private final ExecutorService work =
      Executors.newSingleThreadExecutor(r -> daemon(r, "pool-agents"));
  private final ExecutorService resolvers =
      Executors.newFixedThreadPool(
          RESOLVERS,
          new ThreadFactory() {
            private final AtomicInteger n = new AtomicInteger();

            @Override
            public Thread newThread(Runnable r) {
              return daemon(r, "pool-resolve-" + n.incrementAndGet());
            }
          });
  // a rotation check under way, or its result queued on the ordering thread (never more than one)
  private final AtomicBoolean checkQueued = new AtomicBoolean();
  private final ScheduledExecutorService checks =
      Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "pool-check"));

  /**
   * Kubeconfigs found at once: a guest whose probe hangs holds one of these, never the ordering
   * thread.
   */
  static final int RESOLVERS = 8;

  private record Waiting(HostedTarget target, String credential) {}

  HostedPool(HostedAgent.Shared shared, GuestKubeconfigs kubeconfigs, Duration check) {
    this.shared = shared;
    this.kubeconfigs = kubeconfigs;
    long millis = check.toMillis();
    checks.scheduleWithFixedDelay(this::queueCheck, millis, millis, TimeUnit.MILLISECONDS);
  }

  /**
   * Serves {@code target} with {@code credential}; a cluster served already takes the (rotated)
   * credential.
   */
  @Override
  public void assign(HostedTarget target, String credential) {
    work.execute(
        () -> {
          HostedAgent running = agents.get(target.cluster());
          if (running != null && running.target().equals(target)) {
            running.credential(credential);
            return;
          }
          replace(target, credential);
        });
  }

  @Override
  public void release(String cluster) {
    work.execute(
        () -> {
          stop(cluster);
          reachability.remove(cluster);
          LOG.info("cluster {}: released", cluster);
        });
  }

  /**
   * Every cluster this replica holds a credential for (running or waiting), for the pool's hello.
   */
  @Override
  public Set<String> held() {
    Set<String> all = new HashSet<>(agents.keySet());
    all.addAll(waiting.keySet());
    all.addAll(resolving.keySet());
    return all;
  }

  Set<String> served() {
    return Set.copyOf(agents.keySet());
  }

  boolean connected(String cluster) {
    HostedAgent agent = agents.get(cluster);
    return agent != null && agent.connected();
  }

  Optional<String> credential(String cluster) {
    return Optional.ofNullable(agents.get(cluster)).flatMap(HostedAgent::credential);
  }

  /**
   * On the ordering thread: starts the cluster again, stopping what served it. The cluster moves to
   * its new map before leaving the old one, so {@link #held()}, read by the channel's thread, never
   * misses it (the control plane would take a cluster missing from the pool's hello for one it lost
   * and hand it over again).
   */
  private void replace(HostedTarget target, String credential) {
    HostedAgent old = agents.get(target.cluster());
    start(target, credential);
    if (old != null && agents.remove(target.cluster(), old)) {
      old.stop();
    }
  }

  /**
   * On the ordering thread: finds the cluster's kubeconfig on a resolver thread, then {@link
   * #started} goes on.
   */
  private void start(HostedTarget target, String credential) {
    Object attempt = new Object();
    resolving.put(
        target.cluster(),
        attempt); // a newer attempt: the one under way, if any, is dropped when it returns
    waiting.remove(target.cluster());
    try {
      resolvers.execute(
          () -> {
            Optional<GuestKubeconfigs.Access> access;
            RuntimeException failure = null;
            try {
              access = kubeconfigs.resolve(target);
            } catch (RuntimeException e) {
              access = Optional.empty();
              failure = e;
            }
            Optional<GuestKubeconfigs.Access> found = access;
            RuntimeException failed = failure;
            try {
              work.execute(() -> started(target, credential, attempt, found, failed));
            } catch (RejectedExecutionException e) {
              // closing
            }
          });
    } catch (RejectedExecutionException e) {
      resolving.remove(target.cluster(), attempt); // closing
    }
  }

  /**
   * Back on the ordering thread with what the resolver found; nothing when this attempt was
   * superseded.
   */
  private void started(
      HostedTarget target,
      String credential,
      Object attempt,
      Optional<GuestKubeconfigs.Access> access,
      RuntimeException failure) {
    if (resolving.get(target.cluster()) != attempt) {
      return;
    }
    try {
      if (failure != null) {
        throw failure;
      }
      if (access.isEmpty()) {
        LOG.warn(
            "cluster {}: no kubeconfig in {}/{} or {}/{}-admin-kubeconfig yet; trying again later",
            target.cluster(),
            target.controlPlaneNamespace(),
            GuestKubeconfigs.SERVICE_NETWORK,
            target.namespace(),
            target.name());
        waiting.put(target.cluster(), new Waiting(target, credential));
        return;
      }
      agents.put(
          target.cluster(),
          HostedAgent.start(
              shared,
              target,
              credential,
              access.get(),
              reachability.computeIfAbsent(target.cluster(), GuestReachability::new)));
      LOG.info("cluster {}: serving through {}", target.cluster(), access.get());
    } catch (RuntimeException e) {
      LOG.warn(
          "cluster {}: guest not served yet ({}); trying again later",
          target.cluster(),
          e.getMessage());
      waiting.put(target.cluster(), new Waiting(target, credential));
    } finally {
      resolving.remove(
          target.cluster(), attempt); // after it is in agents or waiting: held() never misses it
    }
  }

  private void stop(String cluster) {
    waiting.remove(cluster);
    resolving.remove(cluster);
    HostedAgent agent = agents.remove(cluster);
    if (agent != null) {
      agent.stop();
    }
  }

  /**
   * One rotation check, on the check thread: reads every served cluster's kubeconfig Secret
   * (management API calls, slow when that API is) and hands only what changed to the ordering
   * thread, so an assignment or a release never waits for the reads. At most one result waits
   * there: a check finding the previous one still queued is skipped.
   */
  private void queueCheck() {
    if (!checkQueued.compareAndSet(false, true)) {
      return;
    }
    List<HostedAgent> changed = new ArrayList<>();
    for (HostedAgent agent : List.copyOf(agents.values())) {
      try {
        Optional<String> now = kubeconfigs.current(agent.access());
        if (now.isEmpty() || !now.get().equals(agent.access().kubeconfig())) {
          changed.add(agent);
        }
      } catch (RuntimeException e) {
        LOG.warn(
            "cluster {}: kubeconfig not checked: {}", agent.target().cluster(), e.getMessage());
      }
    }
    try {
      work.execute(
          () -> {
            try {
              rebuild(changed);
            } finally {
              checkQueued.set(false);
            }
          });
    } catch (RejectedExecutionException e) {
      checkQueued.set(false); // closing
    }
  }

  /**
   * On the ordering thread: rebuilds the guests whose kubeconfig changed (unless stopped or
   * replaced meanwhile).
   */
  private void rebuild(List<HostedAgent> changed) {
    for (HostedAgent agent : changed) {
      String cluster = agent.target().cluster();
      if (agents.get(cluster) != agent) {
        continue;
      }
      Optional<String> credential = agent.credential();
      LOG.info(
          "cluster {}: kubeconfig {} changed; rebuilding its guest client",
          cluster,
          agent.access());
      if (credential.isPresent()) {
        replace(agent.target(), credential.get());
      } else {
        stop(cluster);
      }
    }
    for (Waiting w : Set.copyOf(waiting.values())) {
      if (waiting.get(w.target().cluster()) == w) {
        start(w.target(), w.credential());
      }
    }
  }

  /**
   * Stops every guest once the ordering thread has finished its task under way (which may start
   * one).
   */
  @Override
  public void close() {
    checks.shutdownNow();
    resolvers.shutdownNow();
    work.shutdownNow();
    try {
      if (!work.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn(
            "pool: the ordering thread did not stop within 10 s; stopping the guests beside it");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    resolving.clear();
    agents.values().forEach(HostedAgent::stop);
    agents.clear();
    waiting.clear();
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
