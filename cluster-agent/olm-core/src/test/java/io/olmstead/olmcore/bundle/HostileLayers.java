package io.olmstead.olmcore.bundle;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarConstants;

/** Layers a hostile registry could serve, generated while read so a test never holds them. */
final class HostileLayers {

  private HostileLayers() {}

  /** One JSON manifest of about {@code bytes} and {@code links} links (symbolic or hard) to it. */
  static InputStream linkBomb(int bytes, int links, boolean symbolic) {
    Layer layer =
        new Layer()
            .file(
                "manifests/big.json",
                "{\"kind\":\"ConfigMap\",\"data\":{\"x\":\"" + "a".repeat(bytes) + "\"}}");
    for (int i = 0; i < links; i++) {
      if (symbolic) {
        layer.symlink("manifests/link-" + i + ".json", "big.json");
      } else {
        layer.hardlink("manifests/link-" + i + ".json", "manifests/big.json");
      }
    }
    return layer.gzip();
  }

  /**
   * A header of {@code type} (GNU long name 'L', PAX 'x') declaring {@code size} bytes, all of them
   * present.
   */
  static InputStream hugeHeader(byte type, long size) {
    TarArchiveEntry e =
        new TarArchiveEntry(
            type == TarConstants.LF_GNUTYPE_LONGNAME ? "././@LongLink" : "PaxHeader", type, true);
    e.setSize(size);
    byte[] header = new byte[512];
    e.writeEntryHeader(header);
    byte[] record =
        type == TarConstants.LF_PAX_EXTENDED_HEADER_LC ? pathRecordStart(size) : new byte[0];
    return new SequenceInputStream(
        new ByteArrayInputStream(header),
        new SequenceInputStream(
            new ByteArrayInputStream(record), new Filler(size - record.length)));
  }

  /** A non-tar blob: {@code size} bytes of text. */
  static InputStream notTar(long size) {
    return new Filler(size);
  }

  /** A PAX record "LEN path=" whose value runs to the end of the declared size. */
  private static byte[] pathRecordStart(long size) {
    return (size + " path=").getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code size} bytes of 'a', made on demand. */
  private static final class Filler extends InputStream {
    private long left;

    Filler(long size) {
      this.left = size;
    }

    @Override
    public int read() {
      if (left <= 0) {
        return -1;
      }
      left--;
      return 'a';
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left <= 0) {
        return -1;
      }
      int n = (int) Math.min(len, left);
      Arrays.fill(b, off, off + n, (byte) 'a');
      left -= n;
      return n;
    }
  }
}
