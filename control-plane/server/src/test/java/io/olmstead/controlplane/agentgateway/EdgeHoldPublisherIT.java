package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reads and writes of a desired-state run's edge holds, on PostgreSQL: only the failing
 * evidence of the packages and versions the run's clusters run is read, an unchanged hold is not
 * written again, and a hold the run no longer keeps is released.
 */
class EdgeHoldPublisherIT {
  private static DatabaseSettings db;
  private static Vertx vertx;
  private static Pool pool;
  private static EdgeHoldPublisher publisher;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(EdgeHoldPublisherIT.class);
    Migrations.migrate(db);
    TestDatabase.execute(
        db,
        "INSERT INTO clusters (name, labels, facts) VALUES ('c1', '{}', '{}'), ('c2', '{}', '{}')");
    TestDatabase.execute(db, "INSERT INTO catalogs (name) VALUES ('ocp')");
    TestDatabase.execute(
        db,
        "INSERT INTO subscriptions (name, catalog, package, namespace, version_kind, "
            + "version_value, approval, team, created_by) VALUES "
            + "('sa', 'ocp', 'pa', 'op', 'pin', '2.0.0', 'Automatic', 'red', 'test'), "
            + "('sb', 'ocp', 'pb', 'op', 'pin', '2.0.0', 'Automatic', 'red', 'test')");
    TestDatabase.execute(
        db,
        "INSERT INTO subscription_status (subscription, cluster, installed_version, phase, seq, "
            + "updated_at) VALUES ('sa', 'c1', '1.0.0', 'Succeeded', 1, now()), "
            + "('sb', 'c2', '1.0.0', 'Succeeded', 1, now())");
    // failing risks: pa from the version c1 runs, pa from another version, pb (c1 runs none of it)
    TestDatabase.execute(
        db,
        "INSERT INTO edge_risk_observations (team, package, from_version, to_version, cluster, "
            + "risk_id, facts, failed, detail, source, observed_at) VALUES "
            + "('red', 'pa', '1.0.0', '2.0.0', 'x1', 'risk-a', '{}', true, 'bad', 's', now()), "
            + "('red', 'pa', '1.0.0', '2.0.0', 'x2', 'risk-a', '{}', false, 'ok', 's', now()), "
            + "('red', 'pa', '0.5.0', '2.0.0', 'x1', 'risk-old', '{}', true, 'bad', 's', now()), "
            + "('red', 'pb', '1.0.0', '2.0.0', 'x1', 'risk-b', '{}', true, 'bad', 's', now())");
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(2))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    publisher = new EdgeHoldPublisher(pool, EdgeRiskSettings.DEFAULT, Clock.systemUTC());
  }

  @AfterAll
  static void stop() throws Exception {
    if (pool == null) {
      return;
    }
    pool.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static String one(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs = c.createStatement().executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  @Test
  void aRunReadsOnlyTheFailingEvidenceOfTheEdgesFromTheVersionsItsClustersRun() throws Exception {
    EdgeHoldFilter.Inputs inputs = get(publisher.load(List.of("c1")));
    assertThat(inputs.evidence())
        .extracting(e -> e.pkg() + " " + e.from() + " " + e.failed())
        .as("risk-a's failure and success; not pa from 0.5.0, not pb")
        .containsExactlyInAnyOrder("pa 1.0.0 true", "pa 1.0.0 false");
    assertThat(inputs.installed()).containsOnlyKeys("c1");
  }

  @Test
  void anUnchangedHoldIsNotWrittenAgainAndAHoldNoLongerKeptIsReleased() throws Exception {
    EdgeHoldPublisher.ClusterHeld held =
        new EdgeHoldPublisher.ClusterHeld(
            "c2", new EdgeHoldFilter.Held("sb", "risk-b", "1.0.0", "2.0.0", "EdgeAtRisk (risk-b)"));
    get(publisher.save(List.of("c2"), List.of(held)));
    String xmin = one("SELECT xmin::text FROM subscription_edge_holds WHERE cluster = 'c2'");
    assertThat(xmin).isNotNull();
    get(publisher.save(List.of("c2"), List.of(held)));
    assertThat(one("SELECT xmin::text FROM subscription_edge_holds WHERE cluster = 'c2'"))
        .as("the same hold again writes no new row version")
        .isEqualTo(xmin);
    get(publisher.save(List.of("c1"), List.of()));
    assertThat(one("SELECT count(*) FROM subscription_edge_holds WHERE cluster = 'c2'"))
        .as("a run over other clusters releases nothing of c2")
        .isEqualTo("1");
    get(publisher.save(List.of("c2"), List.of()));
    assertThat(one("SELECT count(*) FROM subscription_edge_holds")).isEqualTo("0");
  }
}
