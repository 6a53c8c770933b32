package io.olmstead.agent.reconcile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Reads an HTTP response body as sent with {@code Content-Encoding} (java.net.http does not decode
 * it), stopping as soon as the decoded bytes pass a limit, so a small compressed body cannot
 * inflate without bound.
 */
final class EncodedBody {
  private static final int CHUNK = 64 * 1024;

  private EncodedBody() {}

  /**
   * The decoded body; an {@link IOException} when the encoding is not identity or gzip, or it
   * exceeds {@code limit}.
   */
  static byte[] read(InputStream body, String contentEncoding, long limit) throws IOException {
    String encoding =
        contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
    InputStream decoded =
        switch (encoding) {
          case "", "identity" -> body;
          case "gzip", "x-gzip" -> new GZIPInputStream(body, CHUNK);
          default -> throw new IOException("unsupported Content-Encoding " + contentEncoding);
        };
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[CHUNK];
    long total = 0;
    for (int n; (n = decoded.read(buffer)) != -1; ) {
      total += n;
      if (total > limit) {
        throw new IOException("response body exceeds the limit of " + limit + " bytes");
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }
}
