package io.olmstead.olmcore.tar;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The decompressed tar stream as commons-compress reads it: every byte is spent from the budget,
 * and while an entry's headers are read ({@link #headers()}) at most the header size limit may
 * pass, so a GNU long name or PAX header that declares hundreds of MiB stops before
 * commons-compress has buffered more than that.
 */
final class TarInput extends FilterInputStream {

  /**
   * Room beyond the header limit for the header records themselves, padding and the end-of-archive
   * block.
   */
  static final int SLACK = 16 * 1024;

  /** A budget was passed; carries the message to report. */
  static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  private final TarBudget budget;
  private long allowance = -1;

  TarInput(InputStream in, TarBudget budget) {
    super(in);
    this.budget = budget;
  }

  /** The next reads are an entry's headers. */
  void headers() {
    allowance = budget.limits().maxHeaderBytes() + (long) SLACK;
  }

  /** The next reads are an entry's data. */
  void data() {
    allowance = -1;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      spend(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      spend(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = super.skip(n);
    spend(skipped);
    return skipped;
  }

  private void spend(long n) throws Refused {
    String over = budget.read(n);
    if (over != null) {
      throw new Refused(over);
    }
    if (allowance >= 0) {
      allowance -= n;
      if (allowance < 0) {
        throw new Refused(
            "an entry's extended headers (GNU long name or link, PAX) pass the header size"
                + " limit of "
                + budget.limits().maxHeaderBytes());
      }
    }
  }
}
