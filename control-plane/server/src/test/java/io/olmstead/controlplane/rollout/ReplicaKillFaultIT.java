package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.server.ControlPlane;
import io.olmstead.controlplane.testsupport.ControlPlaneProcess;
import io.olmstead.controlplane.testsupport.TcpBalancer;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault injection: two replicas on one PostgreSQL behind a balancer, the rollout engine's replica
 * in a JVM of its own, killed with SIGKILL in the middle of a wave. The other replica takes the
 * advisory lock and finishes the rollout, the agents reconnect to it, and the stored result shows
 * no cluster approved twice, no wave skipped, no status lost.
 */
class ReplicaKillFaultIT {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaKillFaultIT.class);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final int CLUSTERS = 24;
  // agents notice a silent replica within seconds, as in production with a shorter window
  private static final Map<String, String> AGENT_ENV =
      Map.of(GatewaySettings.HEARTBEAT_SECONDS, "2", GatewaySettings.DISCONNECT_SECONDS, "6");
  private static final String ENGINE_LOCK =
      "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
          + "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
          + "AND ((classid::bigint << 32) | objid::bigint) = "
          + RolloutEngine.LOCK_KEY;

  @Test
  void killingTheEngineReplicaMidWaveLosesNoStatusSkipsNoWaveAndApprovesNoClusterTwice(
      @TempDir Path tmp) throws Exception {
    DatabaseSettings db = TestDatabase.create(ReplicaKillFaultIT.class);
    Vertx vertx = Vertx.vertx();
    ControlPlaneProcess engineReplica = null;
    ControlPlane survivor = null;
    TcpBalancer balancer = null;
    HollowFleet agents = null;
    try {
      // the JVM replica starts first (it migrates the database) and takes the engine's lock ...
      engineReplica = ControlPlaneProcess.start(db, AGENT_ENV, tmp.resolve("replica-a.log"));
      int portA = engineReplica.port();
      await().atMost(Duration.ofSeconds(20)).until(() -> engineLeader(portA));
      ControlPlaneConfig config =
          ControlPlaneConfig.fromEnvironment(AGENT_ENV, "127.0.0.1")
              .withPort(0)
              .withDatabase(db)
              .withAdminToken(TestControlPlane.ADMIN_TOKEN);
      String survivorReplica = config.agent().replica();
      // ... the in-process replica cannot take it meanwhile: one lock holder in PostgreSQL, replica
      // A by its metric
      survivor =
          ControlPlane.start(config)
              .toCompletionStage()
              .toCompletableFuture()
              .get(2, TimeUnit.MINUTES);
      int portB = survivor.port();
      ControlPlane b = survivor;
      long ticked = b.rollouts().engine().completedTicks();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> b.rollouts().engine().completedTicks() >= ticked + 3);
      assertThat(b.rollouts().engine().leader()).isFalse();
      assertThat(engineLeader(portB)).isFalse();
      assertThat(engineLeader(portA)).isTrue();
      RolloutFixtures fx = new RolloutFixtures(db);
      assertThat(fx.count(ENGINE_LOCK)).as("sessions holding the engine lock").isEqualTo(1);

      balancer = TcpBalancer.start(vertx);
      balancer.addBackend(portA);
      balancer.addBackend(portB);
      fx.catalog();
      fx.subscription("etcd", "fleet=ha", "0.9.2");
      String token = fx.enrollmentToken(CLUSTERS, "{\"fleet\":\"ha\"}");
      agents =
          HollowFleet.start(
              vertx,
              new HollowFleet.Settings(
                  CLUSTERS,
                  URI.create("http://127.0.0.1:" + balancer.port()),
                  token,
                  "ha-",
                  Duration.ofMillis(800),
                  0.0,
                  Map.of(),
                  null,
                  0));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status WHERE "
                              + "subscription = 'etcd' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                      == CLUSTERS);
      long onA =
          fx.count("SELECT count(*) FROM agent_channel_state WHERE replica <> ?", survivorReplica);
      assertThat(onA)
          .as("agents connected to the replica that will be killed")
          .isBetween(1L, CLUSTERS - 1L);

      // canary 2, then batches of 6 (5 waves), at most 2 clusters of a wave upgrading at once
      HttpResponse<String> created =
          call(
              portB,
              "POST",
              "/rollouts",
              "{\"subscription\":\"etcd\",\"targetVersion\":"
                  + "\"0.9.4\",\"strategy\":{\"canary\":{\"count\":2},\"batchSize\":6,\"maxUnavailable\":2,"
                  + "\"soakSeconds\":1,\"progressDeadlineSeconds\":60}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      String id = new JsonObject(created.body()).getString("id");
      assertThat(new JsonObject(created.body()).getJsonArray("waves")).hasSize(5);

      // mid-wave: the third wave is open with some of its clusters approved and some still waiting
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM rollout_waves WHERE rollout_id = ? AND idx = 2 AND state = 'Open' AND EXISTS (SELECT 1 "
                              + "FROM rollout_clusters WHERE rollout_id = ? AND wave = 2 AND step = 'Pending') AND EXISTS (SELECT 1 "
                              + "FROM rollout_clusters WHERE rollout_id = ? AND wave = 2 AND step <> 'Pending')",
                          id,
                          id,
                          id)
                      == 1);
      assertThat(engineLeader(portA)).as("the replica about to be killed runs the engine").isTrue();
      long killedAt = System.nanoTime();
      engineReplica.kill();
      // what the killed replica committed is all there is of it: the kill landed with wave 3 part
      // approved
      long lastWrittenByA =
          fx.count("SELECT coalesce(max(id), 0) FROM rollout_history WHERE rollout_id = ?", id);
      long pendingAtKill =
          fx.count(
              "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND wave = 2 "
                  + "AND step = 'Pending'",
              id);
      assertThat(pendingAtKill)
          .as("clusters of the third wave not yet approved at the kill")
          .isPositive();

      await()
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> b.rollouts().engine().leader());
      long takeoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
      assertThat(fx.count(ENGINE_LOCK)).isEqualTo(1);
      HollowFleet fleet = agents;
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fleet.connected() == CLUSTERS
                      && fx.count(
                              "SELECT count(*) "
                                  + "FROM agent_channel_state WHERE replica = ? AND connected_at IS NOT NULL",
                              survivorReplica)
                          == CLUSTERS);
      long reconnectMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  "Succeeded"
                      .equals(
                          new JsonObject(call(portB, "GET", "/rollouts/" + id, null).body())
                              .getString("state")));
      long finishMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history h JOIN rollout_waves w ON w.rollout_id = h.rollout_id "
                      + "AND w.name = h.wave WHERE h.rollout_id = ? AND h.kind = 'ClusterApproved' AND w.idx = 2 AND h.id > ?",
                  id,
                  lastWrittenByA))
          .as("the third wave's approvals the surviving replica made")
          .isEqualTo(pendingAtKill);
      LOG.info(
          "replica kill with {} clusters of wave 3 left to approve: engine taken over after {} ms, {} agents "
              + "moved and all {} reconnected after {} ms, rollout done {} ms after the kill",
          pendingAtKill,
          takeoverMillis,
          onA,
          CLUSTERS,
          reconnectMillis,
          finishMillis);

      RolloutInvariants invariants = new RolloutInvariants(fx, id);
      invariants.eachClusterApprovedOnce();
      invariants.wavesInOrder();
      invariants.everyLastReportStored("etcd", "0.9.4");
      // a replica acknowledges a report once stored: whatever either replica acknowledged is in the
      // database
      for (ChannelClient agent : fleet.agents()) {
        assertThat(
                fx.count(
                    "SELECT last_status_seq FROM agent_channel_state WHERE cluster = ?",
                    agent.clusterName()))
            .as(agent.clusterName() + ": stored status seq")
            .isGreaterThanOrEqualTo(agent.lastAckedSeq())
            .isPositive();
      }
      assertThat(fx.count("SELECT count(*) FROM clusters WHERE status = 'connected'"))
          .isEqualTo(CLUSTERS);
      assertThat(fx.count("SELECT count(*) FROM rollout_approvals WHERE subscription = 'etcd'"))
          .isZero();
      assertThat(fx.query("SELECT version_value FROM subscriptions WHERE name = 'etcd'").get(0))
          .containsEntry("version_value", "0.9.4");
      invariantsCatchInjectedFaults(fx, id, invariants);
    } finally {
      if (agents != null) {
        agents.close();
      }
      if (balancer != null) {
        balancer.close();
      }
      if (engineReplica != null) {
        engineReplica.close();
      }
      if (survivor != null) {
        survivor.close();
      }
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * The checks are not vacuous: each fault, written into the stored result of this run, is caught
   * (and undone).
   */
  private static void invariantsCatchInjectedFaults(
      RolloutFixtures fx, String id, RolloutInvariants invariants) {
    // a cluster approved a second time (the newest approval, repeated)
    Object twice =
        fx.query(
                "INSERT INTO rollout_history (rollout_id, kind, wave, cluster, message, actor) SELECT "
                    + "rollout_id, kind, wave, cluster, message, actor FROM rollout_history WHERE rollout_id = ? AND kind = "
                    + "'ClusterApproved' ORDER BY id DESC LIMIT 1 RETURNING id",
                id)
            .get(0)
            .get("id");
    assertThatThrownBy(invariants::eachClusterApprovedOnce)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("ClusterApproved history rows");
    fx.update("DELETE FROM rollout_history WHERE id = ?", twice);
    // a wave skipped: the third wave's success recorded after the fourth wave's clusters were
    // approved
    fx.update(
        "UPDATE rollout_history SET id = nextval(pg_get_serial_sequence('rollout_history', 'id')) "
            + "WHERE rollout_id = ? AND kind = 'WaveSucceeded' AND wave = (SELECT name FROM rollout_waves WHERE "
            + "rollout_id = ? AND idx = 2)",
        id,
        id);
    assertThatThrownBy(invariants::wavesInOrder).isInstanceOf(AssertionError.class);
    // a status lost: one cluster's last report replaced by an older one
    fx.update(
        "UPDATE subscription_status SET phase = 'Installing', installed_version = '0.9.2' WHERE cluster = "
            + "(SELECT min(cluster) FROM rollout_clusters WHERE rollout_id = ?)",
        id);
    assertThatThrownBy(() -> invariants.everyLastReportStored("etcd", "0.9.4"))
        .isInstanceOf(AssertionError.class);
  }

  /** Whether the replica on {@code port} says it runs the rollout engine (its leader gauge). */
  private static boolean engineLeader(int port) throws Exception {
    HttpResponse<String> metrics =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return metrics
        .body()
        .lines()
        .anyMatch(
            line -> line.startsWith("olmstead_rollout_engine_leader ") && line.endsWith(" 1.0"));
  }

  private static HttpResponse<String> call(int port, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1" + path))
            .timeout(Duration.ofSeconds(20))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN);
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return HTTP.send(
        b.method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
