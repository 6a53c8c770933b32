package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An agent's facts replace its last ones when it attaches; what the HyperShift watcher knows stays.
 * The time it attached is the gateway's clock's, the one the rollout engine compares it with.
 */
class AttachFactsIT {
  @Test
  void attachingReplacesTheAgentsFactsAndKeepsTheHypershiftFacts() throws Exception {
    DatabaseSettings db = TestDatabase.create(AttachFactsIT.class);
    Migrations.migrate(db);
    TestDatabase.execute(
        db,
        "INSERT INTO clusters (name, facts) VALUES ('hosted', '{\"nodes\":9,"
            + "\"hypershift\":{\"clusterID\":\"id-1\",\"desiredVersion\":\"4.19.7\"}}'), ('plain', '{\"nodes\":2}')");
    Vertx vertx = Vertx.vertx();
    Pool pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(2))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    try {
      ChannelStateStore store = new ChannelStateStore(pool, Clock.systemUTC());
      for (String cluster : List.of("hosted", "plain")) {
        store
            .attach(
                cluster,
                "s-" + cluster,
                "r1",
                1L,
                new Hello(
                    1,
                    "h",
                    "0.1.0",
                    List.of(1),
                    new Facts("v1.30.0", "4.19.7", 3, "hosted", true),
                    0L))
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
      }
      JsonObject hosted = facts(db, "hosted");
      assertThat(hosted.getInteger("nodes")).isEqualTo(3);
      assertThat(hosted.getBoolean("olm")).isTrue();
      assertThat(hosted.getJsonObject("hypershift").getString("clusterID")).isEqualTo("id-1");
      assertThat(facts(db, "plain").containsKey("hypershift")).isFalse();
    } finally {
      pool.close();
      vertx.close();
    }
  }

  @Test
  void attachingStampsConnectedAtFromTheGatewaysClockNotTheDatabasesTime() throws Exception {
    DatabaseSettings db = TestDatabase.create(AttachFactsIT.class);
    TestDatabase.execute(db, "INSERT INTO clusters (name) VALUES ('later')");
    // a year ahead of the database's now(): a stamp from now() could not match it
    Instant attachedAt = Instant.now().plus(Duration.ofDays(365)).truncatedTo(ChronoUnit.MICROS);
    Vertx vertx = Vertx.vertx();
    Pool pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(2))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    try {
      new ChannelStateStore(pool, Clock.fixed(attachedAt, ZoneOffset.UTC))
          .attach(
              "later",
              "s-later",
              "r1",
              1L,
              new Hello(1, "h", "0.1.0", List.of(1), new Facts("v1.30.0", null, 1, null, true), 0L))
          .toCompletionStage()
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
          ResultSet rs =
              c.createStatement()
                  .executeQuery(
                      "SELECT connected_at FROM agent_channel_state WHERE cluster = 'later'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, OffsetDateTime.class).toInstant()).isEqualTo(attachedAt);
      }
    } finally {
      pool.close();
      vertx.close();
    }
  }

  private static JsonObject facts(DatabaseSettings db, String cluster) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs =
            c.createStatement()
                .executeQuery("SELECT facts::text FROM clusters WHERE name = '" + cluster + "'")) {
      rs.next();
      return new JsonObject(rs.getString(1));
    }
  }
}
