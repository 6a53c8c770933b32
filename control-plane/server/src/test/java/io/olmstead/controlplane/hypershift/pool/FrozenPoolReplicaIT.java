package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.testsupport.MovableClock;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A frozen pool replica (its process stopped: the kernel keeps its TCP connection open, nothing answers) is dropped
 * from the live pool replicas when the control plane closes it for silence, not when its connection finally ends: it
 * never answers the close frame, so that end comes only after the server's closing timeout, and meanwhile it would
 * keep its clusters. The replicas here are raw sockets that say hello and then read nothing; the control plane's clock
 * is moved past the silence window instead of waiting for it.
 */
class FrozenPoolReplicaIT {

  @Test
  void aFrozenReplicaLeavesThePoolWhenClosedForSilenceWhileItsConnectionIsStillOpen() throws Exception {
    DatabaseSettings db = TestDatabase.create(FrozenPoolReplicaIT.class);
    MovableClock clock = new MovableClock();
    // rounds every 60 s: only the clock's jump, never real time, makes the replica silent for 3 rounds
    try (TestControlPlane cp = TestControlPlane.start(db, Map.of(PoolSettings.ASSIGN_SECONDS, "60"), 0, clock)) {
      String token = PoolFixtures.poolToken(cp);
      try (Socket frozen = poolReplica(cp, token, "pool-frozen")) {
        await().atMost(Duration.ofSeconds(30)).until(() -> members(db).contains("pool-frozen"));

        clock.jumpTo(Instant.now().plus(Duration.ofSeconds(200)));
        // another replica's hello runs a round: its keep-alive finds the frozen one silent for over 180 s
        try (Socket other = poolReplica(cp, token, "pool-other")) {
          await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
              assertThat(members(db)).containsExactly("pool-other"));
          assertThat(stillOpen(frozen)).as("the frozen replica's connection (it never answered the close)").isTrue();
        }
      }
    }
  }

  /** Upgrades a raw socket to the pool's WebSocket and sends hello; the socket is never read again by the replica. */
  private static Socket poolReplica(TestControlPlane cp, String token, String name) throws IOException {
    Socket socket = new Socket("127.0.0.1", cp.port());
    OutputStream out = socket.getOutputStream();
    out.write(("GET /api/v1/agent/pool HTTP/1.1\r\nHost: 127.0.0.1:" + cp.port() + "\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Authorization: Bearer " + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String response = readHeaders(socket.getInputStream());
    assertThat(response).startsWith("HTTP/1.1 101");
    out.write(maskedText("{\"type\":\"hello\",\"replica\":\"" + name + "\",\"clusters\":[]}"));
    out.flush();
    return socket;
  }

  private static String readHeaders(InputStream in) throws IOException {
    ByteArrayOutputStream headers = new ByteArrayOutputStream();
    while (!headers.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      headers.write(b);
    }
    return headers.toString(StandardCharsets.US_ASCII);
  }

  /** One client text frame (clients mask every frame; payloads here are under 126 bytes). */
  private static byte[] maskedText(String text) {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    assertThat(payload.length).isLessThan(126);
    byte[] mask = {1, 2, 3, 4};
    byte[] frame = new byte[6 + payload.length];
    frame[0] = (byte) 0x81;
    frame[1] = (byte) (0x80 | payload.length);
    System.arraycopy(mask, 0, frame, 2, 4);
    for (int i = 0; i < payload.length; i++) {
      frame[6 + i] = (byte) (payload[i] ^ mask[i % 4]);
    }
    return frame;
  }

  /** Whether the server has not closed the connection: what it sent is drained, and no end of stream follows. */
  private static boolean stillOpen(Socket socket) throws IOException {
    socket.setSoTimeout(200);
    byte[] buffer = new byte[4096];
    try {
      while (true) {
        if (socket.getInputStream().read(buffer) < 0) {
          return false;
        }
      }
    } catch (SocketTimeoutException e) {
      return true;
    }
  }

  private static List<String> members(DatabaseSettings db) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
         Statement s = c.createStatement();
         ResultSet rows = s.executeQuery("SELECT member FROM pool_members ORDER BY member")) {
      List<String> members = new ArrayList<>();
      while (rows.next()) {
        members.add(rows.getString(1));
      }
      return members;
    }
  }
}
