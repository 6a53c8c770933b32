package io.olmstead.controlplane.registry;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Stops a download at a byte limit, so a registry cannot fill the disk by lying about a blob's
 * size.
 */
final class BoundedOutputStream extends FilterOutputStream {

  /** Thrown when the limit is passed. */
  static final class LimitExceeded extends IOException {
    LimitExceeded() {
      super("size limit exceeded");
    }
  }

  private final ByteBudget budget;

  BoundedOutputStream(OutputStream out, long max) {
    this(out, new ByteBudget(max, LimitExceeded::new));
  }

  /** Spends from {@code budget}, which other streams may share (the layers of one pull). */
  BoundedOutputStream(OutputStream out, ByteBudget budget) {
    super(out);
    this.budget = budget;
  }

  @Override
  public void write(int b) throws IOException {
    budget.spend(1);
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    budget.spend(len);
    out.write(b, off, len);
  }
}
