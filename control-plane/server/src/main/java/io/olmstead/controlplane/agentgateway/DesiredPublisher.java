package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.DesiredSubscription;
import io.olmstead.apispec.protocol.PreflightRequest;
import io.olmstead.controlplane.preflight.PreflightStore;
import io.olmstead.controlplane.subscription.DesiredState;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes each connected cluster its desired state. Requests (one cluster, the clusters holding a
 * package whose edge failed, or all after a subscription or catalog change) are coalesced; a run
 * loads the fleet snapshot when it is stale, computes each cluster's desired state ({@link
 * DesiredState}, pure), and sends it only where its content hash differs from what the session last
 * got, bumping those clusters' generations in one statement. Runs on one context, one run at a
 * time.
 */
final class DesiredPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(DesiredPublisher.class);
  private static final long DEBOUNCE_MILLIS = 20;
  // a storm of recorded failures costs at most one run a second of the clusters holding a failed
  // package
  static final long FAILURE_COALESCE_MILLIS = 1000;

  private final Vertx vertx;
  private final Context context;
  private final FleetLoader loader;
  private final ChannelStateStore store;
  private final SessionRegistry sessions;
  private final EdgeHoldPublisher edgeHolds;
  private final GatewayMetrics metrics;
  private final PreflightStore preflights = new PreflightStore();

  private FleetLoader.Snapshot snapshot;
  private boolean snapshotStale = true;
  private boolean pendingAll;
  private final Set<String> pending = new HashSet<>();
  // packages whose edge failed: collected while a failure pass waits, then run
  private final Set<String> failedPackages = new HashSet<>();
  private final Set<String> pendingPackages = new HashSet<>();
  private boolean scheduled;
  private boolean failureScheduled;
  private boolean running;

  DesiredPublisher(
      Vertx vertx,
      FleetLoader loader,
      ChannelStateStore store,
      SessionRegistry sessions,
      EdgeHoldPublisher edgeHolds,
      GatewayMetrics metrics) {
    this.vertx = vertx;
    this.edgeHolds = edgeHolds;
    this.metrics = metrics;
    this.context = vertx.getOrCreateContext();
    this.loader = loader;
    this.store = store;
    this.sessions = sessions;
  }

  /** Subscriptions or catalogs changed: reload them and recompute every connected cluster. */
  void fleetChanged() {
    context.runOnContext(
        v -> {
          snapshotStale = true;
          pendingAll = true;
          schedule();
        });
  }

  /**
   * An edge risk was accepted or cleared: recompute every connected cluster (the subscriptions did
   * not change).
   */
  void holdsChanged() {
    context.runOnContext(
        v -> {
          pendingAll = true;
          schedule();
        });
  }

  /**
   * A failure of an upgrade edge of {@code packageName} was recorded: recompute the connected
   * clusters whose desired state holds a subscription of it (those already sent the edge's target
   * are held; no other cluster's desired state can change), in one pass per {@link
   * #FAILURE_COALESCE_MILLIS} for all the packages that failed meanwhile. A failure that names no
   * package recomputes every cluster.
   */
  void edgeFailed(String packageName) {
    context.runOnContext(
        v -> {
          failedPackages.add(packageName == null ? "" : packageName);
          if (failureScheduled) {
            return;
          }
          failureScheduled = true;
          vertx.setTimer(
              FAILURE_COALESCE_MILLIS,
              id -> {
                failureScheduled = false;
                pendingAll |= failedPackages.remove("");
                pendingPackages.addAll(failedPackages);
                failedPackages.clear();
                schedule();
              });
        });
  }

  /** A cluster connected or its labels changed: recompute that cluster. */
  void clusterChanged(String cluster) {
    context.runOnContext(
        v -> {
          pending.add(cluster);
          schedule();
        });
  }

  private void schedule() {
    if (scheduled || running) {
      return;
    }
    scheduled = true;
    vertx.setTimer(
        DEBOUNCE_MILLIS,
        id -> {
          scheduled = false;
          run();
        });
  }

  private void run() {
    List<AgentSession> targets = new ArrayList<>();
    for (AgentSession s : sessions.all()) {
      if (s.isReady()
          && (pendingAll || pending.contains(s.cluster()) || s.holdsAnyPackage(pendingPackages))) {
        targets.add(s);
      }
    }
    boolean reload = snapshotStale;
    pendingAll = false;
    pending.clear();
    pendingPackages.clear();
    snapshotStale = false;
    if (targets.isEmpty() && !reload) {
      return;
    }
    running = true;
    metrics.desiredComputed(targets.size());
    Future<FleetLoader.Snapshot> fleet =
        reload || snapshot == null ? loader.load() : Future.succeededFuture(snapshot);
    fleet
        .compose(
            loaded -> {
              snapshot = loaded;
              return targets.isEmpty() ? Future.succeededFuture() : publish(loaded, targets);
            })
        .onComplete(
            ar -> {
              running = false;
              if (ar.failed()) {
                LOG.warn(
                    "desired state not published to {} clusters: {}",
                    targets.size(),
                    ar.cause().toString());
                snapshotStale |= reload;
                targets.forEach(s -> pending.add(s.cluster()));
                vertx.setTimer(1000, id -> schedule());
                return;
              }
              if (pendingAll || !pending.isEmpty() || !pendingPackages.isEmpty() || snapshotStale) {
                schedule();
              }
            });
  }

  private Future<Void> publish(FleetLoader.Snapshot fleet, List<AgentSession> targets) {
    List<String> names = targets.stream().map(AgentSession::cluster).toList();
    return loader
        .labels(names)
        .compose(
            labels ->
                loader
                    .kubeVersions(names)
                    .compose(
                        kube ->
                            loader
                                .approvedVersions(names)
                                .compose(
                                    approved ->
                                        preflights
                                            .open(loader.pool(), names)
                                            .compose(
                                                asked ->
                                                    edgeHolds
                                                        .load(names)
                                                        .compose(
                                                            risks -> {
                                                              EdgeHoldFilter holds =
                                                                  new EdgeHoldFilter(risks);
                                                              Map<String, String> teams =
                                                                  new HashMap<>();
                                                              fleet
                                                                  .subscriptions()
                                                                  .forEach(
                                                                      sub ->
                                                                          teams.put(
                                                                              sub.spec().name(),
                                                                              sub.spec().team()));
                                                              List<EdgeHoldPublisher.ClusterHeld>
                                                                  held = new ArrayList<>();
                                                              List<AgentSession> changed =
                                                                  new ArrayList<>();
                                                              List<Computed> contents =
                                                                  new ArrayList<>();
                                                              List<String> hashes =
                                                                  new ArrayList<>();
                                                              // Clusters with the same labels and
                                                              // Kubernetes version (a maturity hold
                                                              // may depend on it) that no
                                                              // subscription
                                                              // names explicitly share one
                                                              // computation and one hash.
                                                              Set<String> named = new HashSet<>();
                                                              fleet
                                                                  .subscriptions()
                                                                  .forEach(
                                                                      sub ->
                                                                          named.addAll(
                                                                              sub.spec().placement()
                                                                                      == null
                                                                                  ? List.of()
                                                                                  : sub.spec()
                                                                                      .placement()
                                                                                      .clusters()));
                                                              Map<List<Object>, Computed> byLabels =
                                                                  new HashMap<>();
                                                              for (AgentSession session : targets) {
                                                                Map<String, String> clusterLabels =
                                                                    labels.get(session.cluster());
                                                                if (clusterLabels == null) {
                                                                  continue; // the cluster was
                                                                  // deleted; its
                                                                  // credential goes with
                                                                  // it and the session is
                                                                  // closed
                                                                }
                                                                Map<String, DesiredState.Approval>
                                                                    approvedHere =
                                                                        approved.get(
                                                                            session.cluster());
                                                                DesiredState.Cluster cluster =
                                                                    new DesiredState.Cluster(
                                                                        session.cluster(),
                                                                        clusterLabels,
                                                                        kube.get(
                                                                            session.cluster()));
                                                                // a cluster with rollout approvals
                                                                // (V5) gets its own computation:
                                                                // its maxVersion is the approved
                                                                // one
                                                                Computed computed =
                                                                    approvedHere != null
                                                                        ? compute(
                                                                            fleet,
                                                                            cluster,
                                                                            approvedHere)
                                                                        : named.contains(
                                                                                session.cluster())
                                                                            ? compute(
                                                                                fleet, cluster,
                                                                                Map.of())
                                                                            : byLabels
                                                                                .computeIfAbsent(
                                                                                    Arrays.asList(
                                                                                        clusterLabels,
                                                                                        cluster
                                                                                            .kubernetesVersion()),
                                                                                    k ->
                                                                                        compute(
                                                                                            fleet,
                                                                                            cluster,
                                                                                            Map
                                                                                                .of()));
                                                                // an edge at risk keeps the
                                                                // subscription where it runs on
                                                                // this cluster (its own desired
                                                                // state and hash)
                                                                EdgeHoldFilter.Applied applied =
                                                                    holds.apply(
                                                                        session.cluster(),
                                                                        computed.desired(),
                                                                        teams);
                                                                if (!applied.held().isEmpty()) {
                                                                  computed =
                                                                      new Computed(
                                                                          applied.desired(),
                                                                          DesiredWire.hash(
                                                                              applied.desired()));
                                                                  applied
                                                                      .held()
                                                                      .forEach(
                                                                          h ->
                                                                              held.add(
                                                                                  new EdgeHoldPublisher
                                                                                      .ClusterHeld(
                                                                                      session
                                                                                          .cluster(),
                                                                                      h)));
                                                                }
                                                                // preflight requests ride along
                                                                // (V23): they change the hash, so a
                                                                // new request is sent at once
                                                                computed =
                                                                    computed.with(
                                                                        asked.get(
                                                                            session.cluster()));
                                                                if (!computed
                                                                    .hash()
                                                                    .equals(session.sentHash())) {
                                                                  changed.add(session);
                                                                  contents.add(computed);
                                                                  hashes.add(computed.hash());
                                                                }
                                                              }
                                                              Future<Void> saved =
                                                                  edgeHolds.save(names, held);
                                                              if (changed.isEmpty()) {
                                                                return saved;
                                                              }
                                                              return saved.compose(
                                                                  v ->
                                                                      store
                                                                          .generations(
                                                                              changed.stream()
                                                                                  .map(
                                                                                      AgentSession
                                                                                          ::cluster)
                                                                                  .toList(),
                                                                              hashes)
                                                                          .map(
                                                                              generations -> {
                                                                                for (int i = 0;
                                                                                    i
                                                                                        < changed
                                                                                            .size();
                                                                                    i++) {
                                                                                  AgentSession
                                                                                      session =
                                                                                          changed
                                                                                              .get(
                                                                                                  i);
                                                                                  Long generation =
                                                                                      generations
                                                                                          .get(
                                                                                              session
                                                                                                  .cluster());
                                                                                  if (generation
                                                                                      != null) {
                                                                                    session
                                                                                        .markSent(
                                                                                            generation,
                                                                                            hashes
                                                                                                .get(
                                                                                                    i),
                                                                                            contents
                                                                                                .get(
                                                                                                    i)
                                                                                                .desired());
                                                                                    session.send(
                                                                                        new Desired(
                                                                                            session
                                                                                                .protocol(),
                                                                                            null,
                                                                                            generation,
                                                                                            contents
                                                                                                .get(
                                                                                                    i)
                                                                                                .subscriptions(),
                                                                                            contents
                                                                                                .get(
                                                                                                    i)
                                                                                                .preflights()));
                                                                                  }
                                                                                }
                                                                                return null;
                                                                              }));
                                                            })))));
  }

  private record Computed(
      List<DesiredSubscription> desired, String hash, List<PreflightRequest> preflights) {
    Computed(List<DesiredSubscription> desired, String hash) {
      this(desired, hash, null);
    }

    Computed with(List<PreflightRequest> asked) {
      return asked == null || asked.isEmpty()
          ? this
          : new Computed(desired, DesiredWire.hash(hash, asked), asked);
    }

    List<DesiredSubscription> subscriptions() {
      return desired;
    }
  }

  private static Computed compute(
      FleetLoader.Snapshot fleet,
      DesiredState.Cluster cluster,
      Map<String, DesiredState.Approval> approved) {
    List<DesiredSubscription> desired =
        DesiredState.withApprovals(
                DesiredState.forCluster(
                    cluster, fleet.subscriptions(), fleet.catalogs(), fleet.reports()),
                approved)
            .stream()
            .map(DesiredWire::wire)
            .toList();
    return new Computed(desired, DesiredWire.hash(desired));
  }
}
