package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.db.DbTime;
import io.olmstead.controlplane.edgerisk.EdgeFacts;
import io.olmstead.controlplane.edgerisk.EdgeRecorder;
import io.olmstead.controlplane.edgerisk.EdgeRiskStore;
import io.olmstead.controlplane.edgerisk.Evidence;
import io.olmstead.controlplane.edgerisk.ReportedEdge;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the edge attempts agents' status reports tell of ({@link ReportedEdge}), towards the
 * version the control plane sent the cluster ({@link ReportedEdge#asked}), for subscriptions no
 * active rollout moves on the cluster (the rollout engine records its own): after the reports are
 * stored, off their batch, through a bounded queue ({@link PendingAttempts}), the one {@link
 * EdgeRecorder} (its per team and per edge bounds) and one audit row per subscription in the
 * recording transaction. The evidence is the subscription's team's, as the database has it: an
 * agent names only its own cluster and the subscriptions placed on it.
 */
final class StatusEdgeRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(StatusEdgeRecorder.class);
  static final String ACTOR = "system:status-intake";
  static final int MAX_QUEUED = 2000;
  static final int MAX_PER_CLUSTER = 32;
  private static final int BATCH = 200;
  private static final String SUBSCRIPTIONS =
      "SELECT name, package, team FROM subscriptions WHERE name = ANY($1)";
  private static final String IN_ROLLOUTS =
      "SELECT rc.cluster, r.subscription FROM rollouts r "
          + "JOIN rollout_clusters rc ON rc.rollout_id = r.id WHERE r.state IN ('Progressing', 'Paused') "
          + "AND r.subscription = ANY($1) AND rc.cluster = ANY($2)";

  private final Context context;
  private final Pool pool;
  private final Clock clock;
  private final List<String> labels;
  private final EdgeRecorder recorder;
  private final EdgeRiskStore store = new EdgeRiskStore();
  private final PendingAttempts pending = new PendingAttempts(MAX_QUEUED, MAX_PER_CLUSTER);
  private final Sent sent;
  private boolean running;
  private long droppedLogged;
  private volatile int backlog;

  /**
   * The {@code maxVersion} the control plane last sent a cluster for a subscription (null: none).
   */
  @FunctionalInterface
  interface Sent {
    String maxVersion(String cluster, String subscription);
  }

  StatusEdgeRecorder(Vertx vertx, Pool pool, EdgeRiskSettings settings, Clock clock, Sent sent) {
    this.sent = sent;
    this.context = vertx.getOrCreateContext();
    this.pool = pool;
    this.clock = clock;
    this.labels = settings.labels();
    this.recorder = new EdgeRecorder(settings);
  }

  /**
   * Queues the attempts of a stored batch; recording runs one batch at a time on this recorder's
   * context.
   */
  void submit(List<PendingAttempts.Pending> attempts) {
    if (attempts.isEmpty()) {
      return;
    }
    // only an edge towards the version this cluster was sent is evidence: an agent cannot make up
    // edges to versions nobody asked it to run
    List<PendingAttempts.Pending> asked =
        attempts.stream()
            .filter(
                p ->
                    ReportedEdge.asked(p.attempt(), sent.maxVersion(p.cluster(), p.subscription())))
            .toList();
    if (asked.isEmpty()) {
      return;
    }
    context.runOnContext(
        v -> {
          asked.forEach(pending::offer);
          backlog = pending.size();
          if (pending.dropped() > droppedLogged) {
            LOG.warn(
                "{} edge attempts reported by agents dropped past the bounds ({} queued at most, {} a cluster)",
                pending.dropped() - droppedLogged,
                MAX_QUEUED,
                MAX_PER_CLUSTER);
            droppedLogged = pending.dropped();
          }
          drain();
        });
  }

  private void drain() {
    if (running || pending.size() == 0) {
      return;
    }
    running = true;
    List<PendingAttempts.Pending> batch = pending.take(BATCH);
    backlog = pending.size() + batch.size();
    pool.withTransaction(tx -> record(tx, batch))
        .onComplete(
            ar ->
                context.runOnContext(
                    v -> {
                      running = false;
                      backlog = pending.size();
                      if (ar.failed()) {
                        LOG.warn(
                            "{} edge attempts reported by agents not recorded: {}",
                            batch.size(),
                            ar.cause().toString());
                      }
                      drain();
                    }));
  }

  /** The attempts queued or being recorded (0: the recorder is idle). */
  int backlog() {
    return backlog;
  }

  private Future<Void> record(SqlConnection tx, List<PendingAttempts.Pending> batch) {
    String[] subs =
        batch.stream().map(PendingAttempts.Pending::subscription).distinct().toArray(String[]::new);
    String[] clusters =
        batch.stream().map(PendingAttempts.Pending::cluster).distinct().toArray(String[]::new);
    Future<Map<String, Row>> owners =
        tx.preparedQuery(SUBSCRIPTIONS)
            .execute(Tuple.of((Object) subs))
            .map(
                rows -> {
                  Map<String, Row> out = new HashMap<>();
                  rows.forEach(r -> out.put(r.getString("name"), r));
                  return out;
                });
    Future<Set<String>> moved =
        owners.compose(
            o ->
                tx.preparedQuery(IN_ROLLOUTS)
                    .execute(Tuple.of((Object) subs, (Object) clusters))
                    .map(
                        rows -> {
                          Set<String> out = new HashSet<>();
                          rows.forEach(
                              r ->
                                  out.add(
                                      r.getString("cluster") + "\n" + r.getString("subscription")));
                          return out;
                        }));
    Future<Map<String, EdgeFacts>> facts =
        moved.compose(m -> store.facts(tx, List.of(clusters), labels));
    return facts.compose(
        f -> {
          Instant now = DbTime.instant(clock);
          Map<String, List<Evidence>> bySubscription = new TreeMap<>();
          for (PendingAttempts.Pending p : batch) {
            Row owner = owners.result().get(p.subscription());
            if (owner == null
                || moved.result().contains(p.cluster() + "\n" + p.subscription())
                || !f.containsKey(p.cluster())) {
              continue;
            }
            bySubscription
                .computeIfAbsent(p.subscription(), k -> new ArrayList<>())
                .add(
                    new Evidence(
                        owner.getString("team"),
                        owner.getString("package"),
                        p.attempt().from(),
                        p.attempt().to(),
                        p.cluster(),
                        f.get(p.cluster()),
                        p.attempt().failed(),
                        p.attempt().detail(),
                        "subscriptions/" + p.subscription(),
                        now));
          }
          Future<Void> chain = Future.succeededFuture();
          for (Map.Entry<String, List<Evidence>> e : bySubscription.entrySet()) {
            chain = chain.compose(v -> recordOne(tx, e.getKey(), e.getValue()));
          }
          return chain;
        });
  }

  private Future<Void> recordOne(SqlConnection tx, String subscription, List<Evidence> evidence) {
    return recorder
        .record(tx, evidence)
        .compose(
            r ->
                r.kept() == 0 && r.dropped() == 0
                    ? Future.succeededFuture()
                    : Audit.record(
                        tx,
                        AuditEntry.system(
                            ACTOR,
                            "edgerisk.record",
                            "subscriptions/" + subscription,
                            AuditEntry.SUCCESS,
                            new JsonObject()
                                .put("kept", r.kept())
                                .put("failures", r.failures())
                                .put("dropped", r.dropped())
                                .put(
                                    "clusters",
                                    new JsonArray(
                                        evidence.stream()
                                            .map(Evidence::cluster)
                                            .distinct()
                                            .toList())))));
  }
}
