package io.olmstead.olmcore.tar;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarUtils;

/**
 * Which layers are read: a tar stream, plain or gzip-compressed, recognised by its first header
 * block (a valid checksum, or the zero block of an empty archive). A download checks its first
 * bytes with {@link #problem} so that anything else stops at once; {@link #open} checks the same
 * while reading.
 */
public final class TarFormat {

  /**
   * Bytes of a download to hold before deciding: gzip's first tar header arrives well within them.
   */
  public static final int PREFIX_BYTES = 64 * 1024;

  private static final int BLOCK = 512;

  private TarFormat() {}

  /** Why the first {@code length} bytes of a blob are not (gzip of) tar, or empty when they are. */
  public static Optional<String> problem(byte[] prefix, int length) {
    Compression c = Compression.of(prefix, length);
    if (c == Compression.ZSTD) {
      return Optional.of("is zstd-compressed, which is not supported");
    }
    byte[] block = new byte[BLOCK];
    int n;
    try (InputStream in =
        c == Compression.GZIP
            ? new GZIPInputStream(new ByteArrayInputStream(prefix, 0, length))
            : new ByteArrayInputStream(prefix, 0, length)) {
      n = in.readNBytes(block, 0, BLOCK);
    } catch (IOException e) {
      return Optional.of(
          "is gzip-compressed but its first " + length + " bytes do not inflate to a tar header");
    }
    return n == BLOCK && header(block) ? Optional.empty() : Optional.of("is not a tar stream");
  }

  /**
   * The layer as a tar stream: gzip inflated; refused when zstd-compressed or when its first block
   * is not tar.
   */
  static InputStream open(int layer, InputStream raw) throws IOException, TarException {
    BufferedInputStream in = new BufferedInputStream(raw, PREFIX_BYTES);
    in.mark(4);
    byte[] magic = in.readNBytes(4);
    in.reset();
    Compression c = Compression.of(magic, magic.length);
    if (c == Compression.ZSTD) {
      throw new TarException("layer " + layer + " is zstd-compressed, which is not supported");
    }
    BufferedInputStream tar =
        c == Compression.GZIP
            ? new BufferedInputStream(new GZIPInputStream(in, PREFIX_BYTES), 8192)
            : in;
    tar.mark(BLOCK);
    byte[] block = tar.readNBytes(BLOCK);
    tar.reset();
    if (block.length < BLOCK || !header(block)) {
      throw new TarException("layer " + layer + " is not a tar stream");
    }
    return tar;
  }

  private static boolean header(byte[] block) {
    for (byte b : block) {
      if (b != 0) {
        try {
          return TarUtils.verifyCheckSum(block);
        } catch (IllegalArgumentException e) {
          return false; // a checksum field that is not octal
        }
      }
    }
    return true;
  }

  private enum Compression {
    GZIP,
    ZSTD,
    NONE;

    static Compression of(byte[] b, int length) {
      if (length >= 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b) {
        return GZIP;
      }
      if (length >= 4
          && (b[0] & 0xff) == 0x28
          && (b[1] & 0xff) == 0xb5
          && (b[2] & 0xff) == 0x2f
          && (b[3] & 0xff) == 0xfd) {
        return ZSTD;
      }
      return NONE;
    }
  }
}
