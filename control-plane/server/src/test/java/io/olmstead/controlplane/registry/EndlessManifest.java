package io.olmstead.controlplane.registry;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How a {@link StuckRegistry#endlessManifest} answers a connection: {@code GET /v2/} 200 (no auth),
 * every {@code /manifests/} request a chunked body of spaces written until the client goes away (or
 * 1 GiB, so a client that reads on does not hold the test forever); a TLS handshake is hung up on,
 * so the client falls back to HTTP. Counts the manifest bytes it managed to write.
 */
final class EndlessManifest {
  static final long CAP = 1L << 30;
  private static final byte[] CHUNK = chunk(64 << 10);

  private final AtomicLong served = new AtomicLong();
  private final AtomicBoolean clientGone = new AtomicBoolean();

  /**
   * Manifest bytes written into the socket (what the client read, plus what the kernel buffers
   * held).
   */
  long served() {
    return served.get();
  }

  /** Whether a manifest stream ended because the client closed or reset the connection. */
  boolean clientGone() {
    return clientGone.get();
  }

  void serve(Socket s) {
    try (s) {
      s.setSendBufferSize(64 << 10);
      InputStream in = new BufferedInputStream(s.getInputStream());
      OutputStream out = s.getOutputStream();
      in.mark(1);
      if (in.read() == 0x16) {
        return; // a TLS handshake
      }
      in.reset();
      for (String head = head(in); head != null; head = head(in)) {
        if (!head.contains("/manifests/")) {
          out.write(
              ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                  .getBytes(StandardCharsets.US_ASCII));
          out.flush();
          continue;
        }
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.oci.image.manifest.v1+json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        while (served.get() < CAP) {
          out.write(CHUNK);
          served.addAndGet(CHUNK.length);
        }
        return;
      }
    } catch (IOException e) {
      clientGone.set(true);
    }
  }

  /** The request line and headers, or null at the end of the connection. */
  private static String head(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      buf.write(b);
      byte[] a = buf.toByteArray();
      int n = a.length;
      if (n >= 4 && a[n - 4] == '\r' && a[n - 3] == '\n' && a[n - 2] == '\r' && a[n - 1] == '\n') {
        return buf.toString(StandardCharsets.US_ASCII);
      }
    }
    return null;
  }

  private static byte[] chunk(int size) {
    byte[] header = (Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[header.length + size + 2];
    System.arraycopy(header, 0, out, 0, header.length);
    Arrays.fill(out, header.length, header.length + size, (byte) ' ');
    out[out.length - 2] = '\r';
    out[out.length - 1] = '\n';
    return out;
  }
}
