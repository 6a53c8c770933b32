package io.olmstead.olmcore.bundle;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/** Builds image layers for tests, including the hostile entries a registry could serve. */
final class Layer {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes);

  Layer() {
    tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
    tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
  }

  Layer file(String name, String content) {
    return file(name, content.getBytes(StandardCharsets.UTF_8));
  }

  Layer file(String name, byte[] content) {
    TarArchiveEntry e = new TarArchiveEntry(name, true);
    e.setSize(content.length);
    return put(e, content);
  }

  Layer dir(String name) {
    return put(new TarArchiveEntry(name.endsWith("/") ? name : name + "/", true), null);
  }

  Layer symlink(String name, String target) {
    TarArchiveEntry e = new TarArchiveEntry(name, TarConstants.LF_SYMLINK, true);
    e.setLinkName(target);
    return put(e, null);
  }

  Layer hardlink(String name, String target) {
    TarArchiveEntry e = new TarArchiveEntry(name, TarConstants.LF_LINK, true);
    e.setLinkName(target);
    return put(e, null);
  }

  Layer special(String name, byte type) {
    return put(new TarArchiveEntry(name, type, true), null);
  }

  private Layer put(TarArchiveEntry e, byte[] content) {
    try {
      tar.putArchiveEntry(e);
      if (content != null) {
        tar.write(content);
      }
      tar.closeArchiveEntry();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return this;
  }

  byte[] tar() {
    try {
      tar.finish();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  InputStream gzip() {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
      z.write(tar());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ByteArrayInputStream(gz.toByteArray());
  }

  InputStream plain() {
    return new ByteArrayInputStream(tar());
  }
}
