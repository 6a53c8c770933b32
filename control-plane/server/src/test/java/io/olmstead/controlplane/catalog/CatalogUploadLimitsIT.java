package io.olmstead.controlplane.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Upload size limits over a raw HTTP/1.1 socket: a declared or streamed body over the limit is 413,
 * stores nothing.
 */
class CatalogUploadLimitsIT {
  private static final int LIMIT = 64 * 1024;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp =
        TestControlPlane.start(
            TestDatabase.create(CatalogUploadLimitsIT.class),
            Map.of("OLMSTEAD_MAX_BODY_BYTES", String.valueOf(LIMIT)));
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
    assertThat(api.putJson("/catalogs/small", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static String head(String framing) {
    return "POST /api/v1/catalogs/small/revisions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Authorization: Bearer "
        + TestControlPlane.ADMIN_TOKEN
        + "\r\nContent-Type: application/x-ndjson\r\n"
        + framing
        + "\r\n\r\n";
  }

  /** The status line's code of the first response on the socket, read with a timeout. */
  private static int status(Socket socket) throws IOException {
    socket.setSoTimeout(20_000);
    InputStream in = socket.getInputStream();
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0 && c != '\n') {
      line.append((char) c);
    }
    return Integer.parseInt(line.toString().split(" ")[1]);
  }

  @Test
  void declaredLengthOverTheLimitIs413BeforeTheBodyIsSent() throws Exception {
    Map<String, Long> before = ApiClient.counts(cp.database());
    try (Socket socket = new Socket("127.0.0.1", cp.port())) {
      socket
          .getOutputStream()
          .write(head("Content-Length: " + (LIMIT * 10)).getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      assertThat(status(socket)).isEqualTo(413);
    }
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
  }

  @Test
  void streamedBodyOverTheLimitIs413() throws Exception {
    Map<String, Long> before = ApiClient.counts(cp.database());
    byte[] chunk = new byte[8 * 1024];
    Arrays.fill(chunk, (byte) ' ');
    try (Socket socket = new Socket("127.0.0.1", cp.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(head("Transfer-Encoding: chunked").getBytes(StandardCharsets.US_ASCII));
      try {
        for (int i = 0; i < (LIMIT / chunk.length) * 3; i++) {
          out.write(
              (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
          out.write(chunk);
          out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (IOException e) {
        // the server answered and closed while we were still sending: read what it said
      }
      assertThat(status(socket)).isEqualTo(413);
    }
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
  }

  @Test
  void aBodyWithinTheLimitStillUploads() {
    HttpResponse<String> response =
        api.post(
            "/catalogs/small/revisions",
            CatalogFixtures.etcdNdjson().getBytes(StandardCharsets.UTF_8),
            "application/x-ndjson");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
  }
}
