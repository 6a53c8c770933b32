package io.olmstead.controlplane.registry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/** Layers of hostile images for end-to-end tests, small as served and large as read. */
final class HostileImages {

  private HostileImages() {}

  /**
   * A gzip layer: {@code dir}/big.json of about {@code bytes} and {@code links} symbolic links to
   * it.
   */
  static byte[] linkBomb(String dir, int bytes, int links) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
      byte[] big =
          ("{\"kind\":\"ConfigMap\",\"data\":{\"x\":\"" + "a".repeat(bytes) + "\"}}").getBytes();
      TarArchiveEntry file = new TarArchiveEntry(dir + "/big.json");
      file.setSize(big.length);
      tar.putArchiveEntry(file);
      tar.write(big);
      tar.closeArchiveEntry();
      for (int i = 0; i < links; i++) {
        TarArchiveEntry link =
            new TarArchiveEntry(dir + "/link-" + i + ".json", TarConstants.LF_SYMLINK);
        link.setLinkName("big.json");
        tar.putArchiveEntry(link);
        tar.closeArchiveEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * A gzip layer starting with a PAX header of {@code size} bytes: one path record as long as the
   * header.
   */
  static byte[] hugePaxHeader(int size) {
    TarArchiveEntry pax =
        new TarArchiveEntry("PaxHeader", TarConstants.LF_PAX_EXTENDED_HEADER_LC, true);
    pax.setSize(size);
    byte[] header = new byte[512];
    pax.writeEntryHeader(header);
    byte[] record = new byte[size];
    Arrays.fill(record, (byte) 'a');
    byte[] start = (size + " path=").getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(start, 0, record, 0, start.length);
    record[size - 1] = '\n';
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(header);
      gz.write(record);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** {@code size} random bytes: neither gzip nor tar. */
  static byte[] notTar(int size) {
    byte[] b = new byte[size];
    new Random(7).nextBytes(b);
    return b;
  }
}
