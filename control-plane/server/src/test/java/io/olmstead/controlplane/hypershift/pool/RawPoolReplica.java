package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
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
import java.util.ArrayList;
import java.util.List;

/**
 * A pool replica as a raw socket: it upgrades, says hello and then sends only what the test tells
 * it to, so it can stand for a frozen replica (the kernel keeps its connection open, nothing
 * answers) or a quiet one. What the control plane sends is kept as text (frames unparsed: the test
 * looks for message types and close reasons in it).
 */
final class RawPoolReplica implements AutoCloseable {
  private final Socket socket;
  private final StringBuilder received = new StringBuilder();
  private boolean ended;

  private RawPoolReplica(Socket socket) {
    this.socket = socket;
  }

  /** Upgrades a raw socket to the pool's WebSocket and sends hello. */
  static RawPoolReplica connect(TestControlPlane cp, String token, String name) throws IOException {
    Socket socket = new Socket("127.0.0.1", cp.port());
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET /api/v1/agent/pool HTTP/1.1\r\nHost: 127.0.0.1:"
                + cp.port()
                + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Authorization: Bearer "
                + token
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String response = readHeaders(socket.getInputStream());
    assertThat(response).startsWith("HTTP/1.1 101");
    RawPoolReplica replica = new RawPoolReplica(socket);
    replica.send("{\"type\":\"hello\",\"replica\":\"" + name + "\",\"clusters\":[]}");
    return replica;
  }

  void send(String text) throws IOException {
    socket.getOutputStream().write(maskedText(text));
    socket.getOutputStream().flush();
  }

  /**
   * Reads what has arrived; whether the server has not closed the connection (no end of stream).
   */
  synchronized boolean stillOpen() throws IOException {
    drain();
    return !ended;
  }

  /** All the control plane sent so far, as text. */
  synchronized String received() throws IOException {
    drain();
    return received.toString();
  }

  /**
   * Waits until the control plane has sent {@code text} (a message type, a close reason) {@code
   * times} times.
   */
  void awaitReceived(String text, int times) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> received().split(text, -1).length - 1 >= times);
  }

  private void drain() throws IOException {
    socket.setSoTimeout(100);
    byte[] buffer = new byte[4096];
    try {
      while (!ended) {
        int n = socket.getInputStream().read(buffer);
        if (n < 0) {
          ended = true;
        } else {
          received.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
        }
      }
    } catch (SocketTimeoutException e) {
      // all that has arrived is read
    } catch (IOException e) {
      ended = true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** The pool replicas with a row in pool_members, by name. */
  static List<String> members(DatabaseSettings db) throws Exception {
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
}
