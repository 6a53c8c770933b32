package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Heartbeat;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.StatusAck;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.apispec.protocol.Welcome;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a misbehaving or confused agent gets: closed with a reason, audited where it matters, others
 * unaffected.
 */
class ChannelLimitsIT {
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static Vertx vertx;
  private static String token;

  @BeforeAll
  static void start() {
    cp =
        TestControlPlane.start(
            TestDatabase.create(ChannelLimitsIT.class),
            Map.of(
                GatewaySettings.HEARTBEAT_SECONDS,
                "1",
                GatewaySettings.DISCONNECT_SECONDS,
                "3",
                GatewaySettings.MESSAGES_PER_SECOND,
                "5",
                GatewaySettings.BURST,
                "50"));
    fixtures = new ChannelFixtures(cp.database());
    token = fixtures.enrollmentToken(100, 600, "{}", null);
    fixtures.placedEverywhere("etcd", "nginx");
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close();
    cp.close();
  }

  private static RawAgent agent(String name) throws Exception {
    return RawAgent.connect(vertx, cp.port(), Enroll.credential(cp.baseUrl(), token, name));
  }

  @Test
  void statusNamingAnotherClusterIsRejectedClosedAndAudited() throws Exception {
    Enroll.credential(cp.baseUrl(), token, "victim");
    try (RawAgent a = agent("intruder")) {
      a.handshake();
      a.sendMessage(new Status(1, null, "victim", 1, true, List.of(running("etcd"))));
      assertThat(a.awaitClose()).isEqualTo(4006);
    }
    assertThat(fixtures.status("victim")).isEmpty();
    assertThat(fixtures.query("SELECT actor, outcome FROM audit_log WHERE action = 'agent.status'"))
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.get("actor")).isEqualTo("cluster:intruder");
              assertThat(row.get("outcome")).isEqualTo("rejected-wrong-cluster");
            });
  }

  @Test
  void replayedAndReorderedReportsChangeNothing() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "seq");
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), credential)) {
      Welcome welcome = a.handshake();
      assertThat(welcome.lastStatusSeq()).isZero();
      a.sendMessage(
          new Status(
              1,
              null,
              "seq",
              5,
              true,
              List.of(phase("etcd", "Installing"), phase("nginx", "Installing"))));
      assertThat(a.next(StatusAck.class).seq()).isEqualTo(5);
      a.sendMessage(new Status(1, null, null, 7, false, List.of(phase("etcd", "Succeeded"))));
      assertThat(a.next(StatusAck.class).seq()).isEqualTo(7);
      // seq 6 arrives late and seq 5 is replayed: both acknowledged, neither applied.
      a.sendMessage(
          new Status(
              1, null, null, 6, false, List.of(phase("etcd", "Failed"), phase("nginx", "Failed"))));
      assertThat(a.next(StatusAck.class).seq()).isEqualTo(6);
      a.sendMessage(new Status(1, null, null, 5, true, List.of(phase("etcd", "Installing"))));
      assertThat(a.next(StatusAck.class).seq()).isEqualTo(5);
    }
    assertThat(fixtures.status("seq"))
        .extracting(r -> r.get("subscription") + "=" + r.get("phase") + "@" + r.get("seq"))
        .containsExactly("etcd=Succeeded@7", "nginx=Installing@5");
    // A reconnecting agent learns the last applied seq, and a full report marks what it no longer
    // has gone.
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), credential)) {
      Welcome welcome = a.handshake();
      assertThat(welcome.lastStatusSeq()).isEqualTo(7);
      a.sendMessage(new Status(1, null, null, 8, true, List.of(phase("etcd", "Succeeded"))));
      assertThat(a.next(StatusAck.class).seq()).isEqualTo(8);
    }
    assertThat(fixtures.status("seq"))
        .extracting(r -> r.get("subscription") + ":" + r.get("gone"))
        .containsExactly("etcd:false", "nginx:true");
  }

  @Test
  void silentClusterIsMarkedDisconnectedAndReconnectingBringsItBack() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "quiet");
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), credential)) {
      a.handshake();
      assertThat(fixtures.clusterStatus("quiet")).isEqualTo("connected");
      // No heartbeats: after the 3 s window the gateway closes the connection and marks the
      // cluster.
      assertThat(a.awaitClose()).isEqualTo(4008);
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> "disconnected".equals(fixtures.clusterStatus("quiet")));
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), credential)) {
      a.handshake();
      for (int i = 0; i < 5; i++) {
        a.sendMessage(new Heartbeat(1, null));
        a.next(Heartbeat.class);
        Thread.sleep(1000);
      }
      assertThat(fixtures.clusterStatus("quiet")).isEqualTo("connected");
      assertThat(a.closeCode).isNotDone();
    }
  }

  @Test
  void malformedOversizeUnknownAndFloodingConnectionsAreClosedWithReasonsOthersUnaffected()
      throws Exception {
    try (RawAgent bystander = agent("bystander")) {
      bystander.handshake();
      try (RawAgent a = agent("garbage")) {
        a.send("{this is not json");
        assertThat(a.awaitClose()).isEqualTo(4002);
        assertThat(a.closeReason).startsWith("malformed-message");
      }
      try (RawAgent a = agent("unknown")) {
        a.handshake();
        a.send("{\"type\":\"rm-rf\",\"protocol\":1}");
        assertThat(a.awaitClose()).isEqualTo(4003);
      }
      try (RawAgent a = agent("early")) {
        a.send("{\"type\":\"heartbeat\",\"protocol\":1}");
        assertThat(a.awaitClose()).isEqualTo(4009);
      }
      try (RawAgent a = agent("future")) {
        a.sendMessage(
            new Hello(
                9,
                null,
                "from-the-future",
                List.of(7, 9),
                new Facts(null, null, null, null),
                null));
        assertThat(a.awaitClose()).isEqualTo(4001);
        assertThat(a.closeReason).contains("unsupported-protocol");
      }
      try (RawAgent a = agent("huge-message")) {
        a.handshake();
        a.send(
            "{\"type\":\"heartbeat\",\"protocol\":1,\"pad\":\""
                + "x".repeat(2 * 1024 * 1024)
                + "\"}");
        assertThat(a.awaitClose()).isEqualTo(4004);
      }
      try (RawAgent a = agent("huge-frame")) {
        a.handshake();
        a.sendFrame(
            io.vertx.core.buffer.Buffer.buffer("{\"pad\":\"" + "y".repeat(100 * 1024) + "\"}"));
        assertThat(a.awaitClose()).isEqualTo(4004);
      }
      try (RawAgent a = agent("flood")) {
        a.handshake();
        for (int i = 0; i < 200 && !a.closeCode.isDone(); i++) {
          a.sendMessage(new Heartbeat(1, null));
        }
        assertThat(a.awaitClose()).isEqualTo(4005);
      }
      bystander.sendMessage(new Heartbeat(1, null));
      assertThat(bystander.next(Heartbeat.class)).isNotNull();
      assertThat(bystander.closeCode).isNotDone();
    }
    String metrics =
        cp.client()
            .get("/metrics")
            .send()
            .toCompletionStage()
            .toCompletableFuture()
            .get()
            .bodyAsString();
    assertThat(metrics)
        .contains("olmstead_agent_rejected_messages_total{reason=\"rate-limited\"}")
        .contains("olmstead_agent_connected");
  }

  @Test
  void connectWithoutAValidCredentialIsRefused() {
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> RawAgent.connect(vertx, cp.port(), "olm_cluster_x")))
        .hasRootCauseInstanceOf(io.vertx.core.http.UpgradeRejectedException.class);
  }

  private static SubscriptionStatus running(String name) {
    return phase(name, "Succeeded");
  }

  private static SubscriptionStatus phase(String name, String phase) {
    return new SubscriptionStatus(name, null, null, "1.0.0", phase, null, null, null, null);
  }
}
