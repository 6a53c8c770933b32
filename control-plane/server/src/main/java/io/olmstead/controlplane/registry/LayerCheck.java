package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.registry.RegistryException.Kind;
import io.olmstead.olmcore.tar.TarFormat;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

/**
 * A layer as it is written to disk: its first {@link TarFormat#PREFIX_BYTES} bytes (or all of a
 * shorter blob) must be tar or gzip of tar, so anything else stops there instead of landing whole
 * in the temporary directory.
 */
final class LayerCheck extends FilterOutputStream {

  /** The download was refused by a check of its own; carries the error to report. */
  static final class Refused extends IOException {
    final RegistryException error;

    Refused(RegistryException error) {
      super(error.getMessage());
      this.error = error;
    }
  }

  private final String layer;
  private final byte[] prefix = new byte[TarFormat.PREFIX_BYTES];
  private int held;
  private boolean checked;

  /** {@code layer}: how the message names it, e.g. "layer 0 of registry/repo@sha256:…". */
  LayerCheck(OutputStream out, String layer) {
    super(out);
    this.layer = layer;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (!checked) {
      int n = Math.min(len, prefix.length - held);
      System.arraycopy(b, off, prefix, held, n);
      held += n;
      if (held == prefix.length) {
        check();
      }
    }
    out.write(b, off, len);
  }

  @Override
  public void close() throws IOException {
    try {
      if (!checked) {
        check();
      }
    } finally {
      super.close();
    }
  }

  private void check() throws Refused {
    checked = true;
    Optional<String> problem = TarFormat.problem(prefix, held);
    if (problem.isPresent()) {
      throw new Refused(
          new RegistryException(
              Kind.INVALID, layer + " " + problem.get() + "; stopped after " + held + " bytes"));
    }
  }
}
