package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.StatusAck;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.apispec.protocol.Welcome;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The red team's WebSocket abuse, kept found: sockets that never say hello, bogus-credential
 * floods, hostile and malformed messages, reports about other clusters' subscriptions and absurd
 * seqs. The attackers dial from 127.0.0.2, real agents from 127.0.0.1, and real agents keep
 * connecting while the abuse runs.
 */
class AgentChannelAbuseIT {
  private static final String ATTACKER = "127.0.0.2";
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static Vertx vertx;
  private static String token;

  @BeforeAll
  static void start() {
    cp =
        TestControlPlane.start(
            TestDatabase.create(AgentChannelAbuseIT.class),
            Map.of(
                GatewaySettings.HELLO_TIMEOUT_SECONDS,
                "5",
                GatewaySettings.IDLE_TIMEOUT_SECONDS,
                "16"));
    fixtures = new ChannelFixtures(cp.database());
    token = fixtures.enrollmentToken(1000, 600, "{}", null);
    fixtures.placedEverywhere("mine");
    // "theirs" is another team's, placed on clusters elsewhere
    fixtures.subscription("theirs", "region=us", "0.9.2");
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close();
    cp.close();
  }

  @Test
  void socketsWithoutHelloAndBogusCredentialFloodsDoNotLockRealAgentsOut() throws Exception {
    List<String> real = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      real.add(Enroll.credential(cp.baseUrl(), token, "real-" + i));
    }
    String stolen = Enroll.credential(cp.baseUrl(), token, "stolen");
    // The attacker has its own Vert.x (its own event loops), as another process would.
    Vertx attackerVertx = Vertx.vertx();
    WebSocketClient attacker =
        attackerVertx.createWebSocketClient(
            new WebSocketClientOptions()
                .setLocalAddress(ATTACKER)
                .setMaxConnections(1000)
                .setConnectTimeout(10_000));
    // 200 upgrades with one valid credential that never send hello, held open.
    List<Future<WebSocket>> silent = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      silent.add(attacker.connect(upgrade(stolen)));
    }
    // join waits for all; most fail (429), which is the point
    Future.join(silent)
        .transform(ar -> Future.succeededFuture())
        .toCompletionStage()
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
    List<WebSocket> upgraded =
        silent.stream().filter(Future::succeeded).map(Future::result).toList();
    // 250 concurrent upgrade loops with a bogus credential, running until the real agents are done.
    AtomicBoolean flooding = new AtomicBoolean(true);
    AtomicInteger bogusAttempts = new AtomicInteger();
    for (int i = 0; i < 250; i++) {
      flood(attacker, flooding, bogusAttempts);
    }
    try {
      List<RawAgent> agents = new ArrayList<>();
      for (String credential : real) {
        agents.add(connectLikeAnAgent(credential, bogusAttempts));
      }
      agents.forEach(RawAgent::close);
    } finally {
      flooding.set(false);
    }
    System.out.println(
        "bogus upgrade attempts during the real agents' handshakes: " + bogusAttempts.get());
    assertThat(bogusAttempts.get()).isGreaterThan(250);
    // Two sockets per credential at a time get past the limits (a few more if the attempts outlast
    // a hello
    // timeout), and they are closed for want of hello.
    assertThat(upgraded).hasSizeLessThan(50);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> upgraded.stream().allMatch(WebSocket::isClosed));
    assertThat(upgraded).allSatisfy(ws -> assertThat((int) ws.closeStatusCode()).isEqualTo(4009));
    Scrape metrics = Scrape.of(cp.baseUrl());
    assertThat(
            metrics.value("olmstead_agent_refused_connections_total{reason=\"per-credential\"}")
                + metrics.value("olmstead_agent_refused_connections_total{reason=\"per-source\"}"))
        .isGreaterThan(150);
    attackerVertx.close();
    // And the credential still works for its cluster once the abuse stops.
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), stolen)) {
      assertThat(agent.handshake().cluster()).isEqualTo("stolen");
    }
  }

  @Test
  void idleHttpConnectionsAreClosedByTheServer() throws Exception {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", cp.port()), 5_000);
      socket.setSoTimeout(60_000);
      // the server ends the silent connection (end of stream), rather than the read timing out on
      // our side
      try (InputStream in = socket.getInputStream()) {
        assertThat(in.read()).isEqualTo(-1);
      }
    }
  }

  @Test
  void hostileMessagesAreClosedAsMalformedNamingTheFieldAndNothingIsStored() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "hostile");
    assertThat(closeAfter(credential, false, hello("v".repeat(60_000), 1, "in-guest")))
        .contains("agentVersion");
    assertThat(closeAfter(credential, false, hello("0.1\u00000", 1, "in-guest")))
        .contains("agentVersion")
        .contains("NUL");
    assertThat(closeAfter(credential, false, hello("0.1.0", -5, "in-guest"))).contains("nodes");
    assertThat(
            closeAfter(
                credential, false, "{\"type\":\"hello\",\"protocol\":\"one\",\"agentVersion\":1}"))
        .startsWith("malformed-message");
    assertThat(
            closeAfter(
                credential,
                false,
                "{\"type\":\"hello\",\"protocol\":1,\"agentVersion\":\"x\","
                    + "\"facts\":{\"nodes\":\"many\"}}"))
        .contains("nodes");
    assertThat(closeAfter(credential, true, status(1, item("mine", "Pwned")))).contains("phase");
    assertThat(
            closeAfter(
                credential,
                true,
                "{\"type\":\"status\",\"protocol\":1,\"seq\":\"2\",\"full\":true,"
                    + "\"subscriptions\":[]}"))
        .contains("seq");
    assertThat(
            closeAfter(
                credential, true, "{\"type\":\"status\",\"protocol\":1,\"seq\":2,\"full\":tru"))
        .isEqualTo("malformed-message: not JSON");
    // Big enough to be validated off the event loop: the answer is the same.
    List<SubscriptionStatus> many =
        new ArrayList<>(Collections.nCopies(400, item("mine", "Succeeded")));
    many.set(399, item("mine", "Pwned"));
    assertThat(closeAfter(credential, true, status(2, many.toArray(SubscriptionStatus[]::new))))
        .contains("phase");
    assertThat(
            closeAfter(
                credential,
                true,
                status(
                    2,
                    Collections.nCopies(2001, item("mine", "Succeeded"))
                        .toArray(SubscriptionStatus[]::new))))
        .contains("subscriptions");
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), credential)) {
      a.handshake();
      a.send(
          "{\"type\":\"heartbeat\",\"protocol\":1,\"pad\":\""
              + "x".repeat(2 * 1024 * 1024)
              + "\"}");
      assertThat(a.awaitClose()).isEqualTo(4004);
    }
    assertThat(fixtures.query("SELECT agent_version FROM clusters WHERE name = 'hostile'"))
        .singleElement()
        .satisfies(row -> assertThat(row.get("agent_version")).isIn(null, "test"));
    assertThat(fixtures.status("hostile")).isEmpty();
  }

  @Test
  void statusForSubscriptionsNotPlacedOnTheClusterIsDroppedAndCounted() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "nosy");
    double droppedBefore =
        Scrape.of(cp.baseUrl()).value("olmstead_agent_status_dropped_total{reason=\"not-placed\"}");
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), credential)) {
      a.handshake();
      a.sendMessage(
          new Status(
              1,
              null,
              null,
              1,
              true,
              List.of(
                  item("mine", "Succeeded"), item("theirs", "Failed"), item("not-yet", "Failed"))));
      assertThat(a.next(StatusAck.class).seq()).isEqualTo(1);
      assertThat(fixtures.status("nosy"))
          .extracting(r -> r.get("subscription"))
          .containsExactly("mine");
      // Once a subscription is placed on the cluster its reports are taken.
      fixtures.subscription("not-yet", "region=eu", "0.9.2");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  a.next(Desired.class).subscriptions().stream()
                      .anyMatch(s -> s.name().equals("not-yet")));
      a.sendMessage(new Status(1, null, null, 2, false, List.of(item("not-yet", "Installing"))));
      assertThat(a.next(StatusAck.class).seq()).isEqualTo(2);
    }
    assertThat(fixtures.status("nosy"))
        .extracting(r -> r.get("subscription"))
        .containsExactly("mine", "not-yet");
    assertThat(fixtures.status("theirs")).isEmpty();
    assertThat(
            Scrape.of(cp.baseUrl())
                    .value("olmstead_agent_status_dropped_total{reason=\"not-placed\"}")
                - droppedBefore)
        .isEqualTo(2.0);
  }

  @Test
  void anAbsurdSeqIsRefusedAndReEnrollingResetsAStuckSequence() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "stuck");
    assertThat(closeAfter(credential, true, status(Long.MAX_VALUE, item("mine", "Succeeded"))))
        .contains("seq");
    assertThat(
            closeAfter(
                credential, true, status(Status.MAX_SEQ_JUMP + 1, item("mine", "Succeeded"))))
        .contains("jumps");
    assertThat(
            fixtures.query(
                "SELECT last_status_seq FROM agent_channel_state WHERE cluster = 'stuck'"))
        .singleElement()
        .satisfies(row -> assertThat(row.get("last_status_seq")).isEqualTo(0L));
    // A cluster stuck at the top by an older control plane: its reports are only acknowledged...
    fixtures.update(
        "UPDATE agent_channel_state SET last_status_seq = ? WHERE cluster = 'stuck'",
        Long.MAX_VALUE);
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), credential)) {
      assertThat(a.handshake().lastStatusSeq()).isEqualTo(Long.MAX_VALUE);
    }
    // ...until it enrolls again, which numbers its reports afresh.
    String bound = fixtures.enrollmentToken(1, 600, "{}", "stuck");
    String fresh = Enroll.credential(cp.baseUrl(), bound, "stuck");
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), fresh)) {
      assertThat(a.handshake().lastStatusSeq()).isZero();
      a.sendMessage(status(1, item("mine", "Succeeded")));
      assertThat(a.next(StatusAck.class).seq()).isEqualTo(1);
    }
    assertThat(fixtures.status("stuck"))
        .extracting(r -> r.get("phase"))
        .containsExactly("Succeeded");
  }

  /**
   * Connects and says hello as a real agent would: a refusal or a close is retried after a second,
   * five times at most (the sockets without hello stay for good without the hello timeout, so this
   * still fails then).
   */
  private static RawAgent connectLikeAnAgent(String credential, AtomicInteger bogusAttempts)
      throws Exception {
    long started = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      RawAgent agent = null;
      try {
        agent = RawAgent.connect(vertx, cp.port(), credential);
        Welcome welcome = agent.handshake();
        System.out.printf(
            "real agent %s welcomed under abuse after %d ms, attempt %d (bogus attempts so far %d)%n",
            welcome.cluster(),
            (System.nanoTime() - started) / 1_000_000,
            attempt,
            bogusAttempts.get());
        return agent;
      } catch (Exception | AssertionError e) {
        if (agent != null) {
          agent.close();
        }
        if (attempt == 5) {
          throw new AssertionError("a real agent could not connect during the abuse: " + e, e);
        }
        Thread.sleep(1000);
      }
    }
  }

  /**
   * Sends {@code text} (after a handshake when asked) and returns the close frame's reason; the
   * code must be 4002.
   */
  private static String closeAfter(String credential, boolean handshake, Object message)
      throws Exception {
    try (RawAgent a = RawAgent.connect(vertx, cp.port(), credential)) {
      if (handshake) {
        a.handshake();
      }
      if (message instanceof String text) {
        a.send(text);
      } else {
        a.sendMessage((AgentMessage) message);
      }
      assertThat(a.awaitClose()).as(a.closeReason).isEqualTo(4002);
      return a.closeReason;
    }
  }

  private static void flood(
      WebSocketClient client, AtomicBoolean flooding, AtomicInteger attempts) {
    if (!flooding.get()) {
      return;
    }
    attempts.incrementAndGet();
    client
        .connect(upgrade("olm_cluster_bogus" + attempts.get()))
        .onComplete(
            ar -> {
              if (ar.succeeded()) {
                ar.result().close();
              }
              flood(client, flooding, attempts);
            });
  }

  private static WebSocketConnectOptions upgrade(String credential) {
    return new WebSocketConnectOptions()
        .setHost("127.0.0.1")
        .setPort(cp.port())
        .setURI("/api/v1/agent/connect")
        .putHeader("Authorization", "Bearer " + credential);
  }

  private static Hello hello(String version, int nodes, String mode) {
    return new Hello(1, null, version, List.of(1), new Facts("v1.30.0", null, nodes, mode), null);
  }

  private static Status status(long seq, SubscriptionStatus... items) {
    return new Status(1, null, null, seq, true, List.of(items));
  }

  private static SubscriptionStatus item(String name, String phase) {
    return new SubscriptionStatus(name, null, null, "0.9.2", phase, null, null, null, null);
  }
}
