package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.olmstead.apispec.protocol.Approve;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Approvals reach a replica's agents when its change notifications are missed: the periodic resync
 * carries them, and a LISTEN connection that stopped delivering without closing is found by its own
 * ping and replaced.
 */
class ChangeLivenessIT {
  private static DatabaseSettings db;
  private static ChannelFixtures fixtures;
  private static Vertx vertx;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(ChangeLivenessIT.class);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void tearDown() {
    vertx.close();
  }

  @Test
  void anApprovalStoredWithoutItsNotificationReachesTheAgentAtTheNextResync() throws Exception {
    try (TestControlPlane cp =
        TestControlPlane.start(db, Map.of(GatewaySettings.RESYNC_SECONDS, "2"))) {
      fixtures = new ChannelFixtures(db);
      try (RawAgent agent = agent(cp, "missed-notify")) {
        // Triggers off for this transaction: the row is stored and no replica is told, as when one
        // missed it.
        fixtures.update(
            "BEGIN; SET LOCAL session_replication_role = replica; INSERT INTO cluster_approvals "
                + "(cluster, subscription, bundle, approved_by) VALUES ('missed-notify', 'etcd', 'etcdoperator.v0.9.4', "
                + "'test'); COMMIT");

        Approve approve = agent.next(Approve.class);

        assertThat(approve.subscription()).isEqualTo("etcd");
        assertThat(approve.bundle()).isEqualTo("etcdoperator.v0.9.4");
      }
    }
  }

  @Test
  void
      anApprovalStoredWhileTheListenConnectionIsSilentlyDeadReachesTheAgentWithoutWaitingForTheResync()
          throws Exception {
    try (TestControlPlane cp =
        TestControlPlane.start(db, Map.of(GatewaySettings.RESYNC_SECONDS, "600"))) {
      fixtures = new ChannelFixtures(db);
      try (RawAgent agent = agent(cp, "dead-listen")) {
        long listener = listenerBackend();
        Optional<ProcessHandle> backend = ProcessHandle.of(listener);
        assumeThat(backend).as("the database server runs on this machine").isPresent();
        signal(
            "STOP",
            listener); // the socket stays open: the replica sees nothing wrong, notifications stop
        try {
          fixtures.update(
              "INSERT INTO cluster_approvals (cluster, subscription, bundle, approved_by) VALUES "
                  + "('dead-listen', 'etcd', 'etcdoperator.v0.9.4', 'test')");

          Approve approve = agent.next(Approve.class, Duration.ofSeconds(30));

          assertThat(approve.bundle()).isEqualTo("etcdoperator.v0.9.4");
        } finally {
          signal("CONT", listener);
          fixtures.query("SELECT pg_terminate_backend(?)", (int) listener);
        }
      }
    }
  }

  private static RawAgent agent(TestControlPlane cp, String name) throws Exception {
    String token = fixtures.enrollmentToken(1, 600, "{}", null);
    String credential = Enroll.credential(cp.baseUrl(), token, name);
    RawAgent agent = RawAgent.connect(vertx, cp.port(), credential);
    agent.handshake();
    return agent;
  }

  private static long listenerBackend() {
    List<Map<String, Object>> rows =
        fixtures.query(
            "SELECT pid FROM pg_stat_activity WHERE datname = "
                + "current_database() AND query LIKE 'LISTEN %'");
    // the replica's one LISTEN connection (db.Notifications), which carries the agent changes among
    // its channels
    assertThat(rows).as("one LISTEN connection").hasSize(1);
    return ((Number) rows.get(0).get("pid")).longValue();
  }

  private static void signal(String name, long pid) throws IOException, InterruptedException {
    assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start().waitFor())
        .isZero();
  }
}
