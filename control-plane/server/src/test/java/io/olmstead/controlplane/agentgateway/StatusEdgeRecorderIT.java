package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.edgerisk.EdgeRecorder;
import io.olmstead.controlplane.edgerisk.ReportedEdge;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Edge attempts from agents' status reports outside rollouts, on PostgreSQL: what the status batch
 * returns, what is recorded (the subscription's team as stored, never the agent's word), what a
 * replay, a repeated failure, an edge towards a version the cluster was not sent and a cluster an
 * active rollout moves record (nothing), and a flood of made-up edges from one agent (within the
 * cluster's bound, another team's attempt still recorded).
 */
class StatusEdgeRecorderIT {
  private static DatabaseSettings db;
  private static Vertx vertx;
  private static Pool pool;
  private static StatusBatchWriter writer;
  private static StatusEdgeRecorder recorder;
  // cluster/subscription to the maxVersion the control plane sent there
  private static final Map<String, String> SENT = new ConcurrentHashMap<>();

  private static String sent(String cluster, String subscription) {
    return SENT.get(cluster + "/" + subscription);
  }

  @BeforeAll
  static void start() {
    db = TestDatabase.create(StatusEdgeRecorderIT.class);
    Migrations.migrate(db);
    TestDatabase.execute(
        db,
        "INSERT INTO clusters (name, labels, facts) VALUES "
            + "('red-1', '{\"fips\":\"true\"}', '{\"kubernetesVersion\":\"v1.29.4\"}'), "
            + "('blue-1', '{\"fips\":\"true\"}', '{\"kubernetesVersion\":\"v1.29.1\"}'), "
            + "('flood-1', '{\"fips\":\"false\"}', '{}'), ('moved-1', '{\"fips\":\"true\"}', '{}'), ('next-1', '{}', '{}'), "
            + "('liar-1', '{\"fips\":\"true\"}', '{}'), ('told-1', '{}', '{}'), ('calm-1', '{}', '{}')");
    TestDatabase.execute(db, "INSERT INTO catalogs (name) VALUES ('ocp')");
    TestDatabase.execute(
        db,
        "INSERT INTO subscriptions (name, catalog, package, namespace, version_kind, "
            + "version_value, approval, team, created_by) VALUES "
            + "('op-red', 'ocp', 'op', 'op', 'pin', '2.0.0', 'Automatic', 'red', 'test'), "
            + "('op-blue', 'ocp', 'op', 'op', 'pin', '2.0.0', 'Automatic', 'blue', 'test'), "
            + "('op-flood', 'ocp', 'flood', 'op', 'pin', '2.0.0', 'Automatic', 'flood', 'test')");
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(4))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    writer = new StatusBatchWriter(pool, Clock.systemUTC());
    SENT.put("red-1/op-red", "2.0.0");
    SENT.put("blue-1/op-blue", "2.0.0");
    SENT.put("moved-1/op-red", "2.0.0");
    SENT.put("next-1/op-blue", "9.9.9");
    SENT.put("flood-1/op-flood", "2.0.0");
    SENT.put("liar-1/op-red", "2.0.0");
    SENT.put("told-1/op-blue", "9.9.10");
    SENT.put("calm-1/op-blue", "2.5.0");
    recorder =
        new StatusEdgeRecorder(
            vertx,
            pool,
            new EdgeRiskSettings(List.of("fips"), 5, 40, 14, 10),
            Clock.systemUTC(),
            StatusEdgeRecorderIT::sent);
  }

  @AfterAll
  static void stop() throws Exception {
    if (pool == null) {
      return;
    }
    pool.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static List<PendingAttempts.Pending> report(
      String cluster, long seq, String sub, String installed, String target, String phase)
      throws Exception {
    Status status =
        new Status(
            1,
            "s" + seq,
            cluster,
            seq,
            false,
            List.of(
                new SubscriptionStatus(
                    sub,
                    null,
                    installed,
                    target,
                    phase,
                    "Failed".equals(phase) ? "InstallCheckFailed" : null,
                    "install failed",
                    List.of(),
                    1L)));
    List<PendingAttempts.Pending> attempts =
        writer
            .write(List.of(new StatusBatchWriter.Report(cluster, status)), List.of())
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    recorder.submit(attempts);
    return attempts;
  }

  private static long count(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void
      recordsTheSubscriptionsTeamsFailureAndAnotherTeamsSuccessOnMatchingFactsAndNothingForAReplay()
          throws Exception {
    assertThat(report("red-1", 1, "op-red", "1.0.0", "1.0.0", "Succeeded")).isEmpty();
    assertThat(report("red-1", 2, "op-red", "1.0.0", "2.0.0", "Failed")).hasSize(1);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                count(
                        "SELECT count(*) FROM edge_risk_observations WHERE "
                            + "team = 'red' AND cluster = 'red-1' AND failed AND from_version = '1.0.0' AND to_version = '2.0.0' "
                            + "AND source = 'subscriptions/op-red' AND detail = 'InstallCheckFailed: install failed'")
                    == 1);
    assertThat(report("red-1", 2, "op-red", "1.0.0", "2.0.0", "Failed"))
        .as("a replay changes no row")
        .isEmpty();
    assertThat(report("red-1", 3, "op-red", "1.0.0", "2.0.0", "Failed"))
        .as("the same failure again")
        .isEmpty();

    // another team's cluster with the same facts takes the edge: its success is recorded as its
    // team's
    report("blue-1", 1, "op-blue", "1.0.0", "1.0.0", "Succeeded");
    assertThat(report("blue-1", 2, "op-blue", "2.0.0", "2.0.0", "Succeeded")).hasSize(1);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                count(
                        "SELECT count(*) FROM edge_risk_observations WHERE "
                            + "team = 'blue' AND cluster = 'blue-1' AND NOT failed")
                    == 1);
    assertThat(
            count(
                "SELECT count(DISTINCT risk_id) FROM edge_risk_observations WHERE package = 'op' "
                    + "AND to_version = '2.0.0'"))
        .as("one risk: both clusters' facts match")
        .isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM audit_log WHERE action = 'edgerisk.record' AND actor = "
                    + "'system:status-intake' AND resource = 'subscriptions/op-red'"))
        .isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM audit_log WHERE action = 'edgerisk.record' AND actor = "
                    + "'system:status-intake' AND resource = 'subscriptions/op-blue'"))
        .isGreaterThanOrEqualTo(1);
  }

  @Test
  void aClusterAnActiveRolloutMovesIsLeftToTheEngine() throws Exception {
    TestDatabase.execute(
        db,
        "INSERT INTO rollouts (id, subscription, target_version, state, strategy, created_by) "
            + "VALUES ('r-moved', 'op-red', '2.0.0', 'Progressing', '{}', 'test')");
    TestDatabase.execute(
        db,
        "INSERT INTO rollout_clusters (rollout_id, cluster, wave, step) "
            + "VALUES ('r-moved', 'moved-1', 0, 'Progressing')");
    report("moved-1", 1, "op-red", "1.0.0", "1.0.0", "Succeeded");
    assertThat(report("moved-1", 2, "op-red", "1.0.0", "2.0.0", "Failed")).hasSize(1);
    // a later attempt of another cluster is recorded once the queue got past moved-1's
    report("next-1", 1, "op-blue", "1.0.0", "1.0.0", "Succeeded");
    report("next-1", 2, "op-blue", "1.0.0", "9.9.9", "Failed");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                count(
                        "SELECT count(*) FROM edge_risk_observations WHERE "
                            + "cluster = 'next-1' AND to_version = '9.9.9'")
                    == 1);
    assertThat(count("SELECT count(*) FROM edge_risk_observations WHERE cluster = 'moved-1'"))
        .isZero();
  }

  @Test
  void anEdgeTowardsAVersionTheClusterWasNotSentIsNotRecorded() throws Exception {
    report("liar-1", 1, "op-red", "2.0.0", "2.0.0", "Succeeded");
    assertThat(report("liar-1", 2, "op-red", "2.0.0", "7.0.0", "Failed")).hasSize(1);
    report("told-1", 1, "op-blue", "9.9.9", "9.9.9", "Succeeded");
    report("told-1", 2, "op-blue", "9.9.9", "9.9.10", "Failed");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                count(
                        "SELECT count(*) FROM edge_risk_observations WHERE "
                            + "cluster = 'told-1' AND to_version = '9.9.10'")
                    == 1);
    assertThat(count("SELECT count(*) FROM edge_risk_observations WHERE to_version = '7.0.0'"))
        .as("liar-1 was sent 2.0.0, never 7.0.0")
        .isZero();
  }

  @Test
  void aHostileAgentReportingTenThousandMadeUpEdgesKeepsAtMostItsClusterBoundAndOthersAreRecorded()
      throws Exception {
    // the team's bound (5,000 by default) is far above the cluster's
    StatusEdgeRecorder roomy =
        new StatusEdgeRecorder(
            vertx, pool, EdgeRiskSettings.DEFAULT, Clock.systemUTC(), StatusEdgeRecorderIT::sent);
    List<PendingAttempts.Pending> chunk = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      // half towards versions never sent, half from made-up versions towards the one sent
      ReportedEdge.Attempt made =
          i % 2 == 0
              ? new ReportedEdge.Attempt("1.0.0", "3.0." + i, true, "made up")
              : new ReportedEdge.Attempt("0.0." + i, "2.0.0", true, "made up");
      chunk.add(new PendingAttempts.Pending("flood-1", "op-flood", made));
      if (chunk.size() == 64) {
        roomy.submit(List.copyOf(chunk));
        chunk.clear();
        await().atMost(Duration.ofSeconds(30)).until(() -> roomy.backlog() == 0);
      }
    }
    roomy.submit(chunk);
    report("calm-1", 1, "op-blue", "2.0.0", "2.0.0", "Succeeded");
    assertThat(report("calm-1", 2, "op-blue", "2.0.0", "2.5.0", "Failed")).hasSize(1);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                count(
                        "SELECT count(*) FROM edge_risk_observations WHERE "
                            + "team = 'blue' AND to_version = '2.5.0'")
                    == 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> roomy.backlog() == 0);
    assertThat(count("SELECT count(*) FROM edge_risk_observations WHERE cluster = 'flood-1'"))
        .as("the cluster's bound within its team")
        .isLessThanOrEqualTo(EdgeRecorder.MAX_PER_CLUSTER)
        .isPositive();
    assertThat(
            count(
                "SELECT count(*) FROM edge_risk_observations WHERE cluster = 'flood-1' "
                    + "AND to_version <> '2.0.0'"))
        .as("no edge towards a version flood-1 was not sent")
        .isZero();
  }
}
