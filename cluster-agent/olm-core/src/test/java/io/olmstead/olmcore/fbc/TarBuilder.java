package io.olmstead.olmcore.fbc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/** Writes small ustar archives for tests (the production reader is the thing under test). */
final class TarBuilder {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  TarBuilder file(String name, String content) {
    return entry(name, '0', content.getBytes(StandardCharsets.UTF_8));
  }

  TarBuilder entry(String name, char type, byte[] data) {
    byte[] h = new byte[512];
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    if (n.length > 100) {
      // PAX extended header carrying the long path
      String rec = " path=" + name + "\n";
      int len = rec.length() + 1;
      len = (String.valueOf(len) + rec).length();
      entry("PaxHeader", 'x', (len + rec).getBytes(StandardCharsets.UTF_8));
      n = "longname".getBytes(StandardCharsets.UTF_8);
    }
    System.arraycopy(n, 0, h, 0, n.length);
    octal(h, 100, 8, 0644);
    octal(h, 108, 8, 0);
    octal(h, 116, 8, 0);
    octal(h, 124, 12, data.length);
    octal(h, 136, 12, 0);
    h[156] = (byte) type;
    System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 6);
    h[263] = '0';
    h[264] = '0';
    for (int i = 148; i < 156; i++) {
      h[i] = ' ';
    }
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    octal(h, 148, 7, sum);
    out.writeBytes(h);
    out.writeBytes(data);
    out.writeBytes(new byte[(512 - data.length % 512) % 512]);
    return this;
  }

  byte[] tarGz() throws IOException {
    out.writeBytes(new byte[1024]);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
      z.write(out.toByteArray());
    }
    return gz.toByteArray();
  }

  private static void octal(byte[] h, int off, int len, long v) {
    String s = Long.toOctalString(v);
    s = "0".repeat(Math.max(0, len - 1 - s.length())) + s;
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(b, 0, h, off, b.length);
    h[off + len - 1] = 0;
  }
}
