package io.olmstead.olmcore.tar;

/**
 * What one image (or archive) has spent of its {@link TarLimits}; every method refuses before the
 * limit is passed.
 */
final class TarBudget {

  private final TarLimits limits;
  private int entries;
  private int links;
  private long kept;
  private long read;

  TarBudget(TarLimits limits) {
    this.limits = limits;
  }

  TarLimits limits() {
    return limits;
  }

  void entry() throws TarException {
    if (++entries > limits.maxEntries()) {
      throw new TarException(
          "the image has more tar entries than the entry limit of " + limits.maxEntries());
    }
  }

  void link(String path) throws TarException {
    if (++links > limits.maxLinks()) {
      throw new TarException("link " + path + " is over the link limit of " + limits.maxLinks());
    }
  }

  /** Bytes about to be kept (a file's, or a link target's again). */
  void keep(String path, long size) throws TarException {
    if (size > limits.maxFileBytes()) {
      throw new TarException(
          path + " is " + size + " bytes, over the file size limit of " + limits.maxFileBytes());
    }
    if (kept + size > limits.maxKeptBytes()) {
      throw new TarException(
          "keeping "
              + path
              + " would pass the kept bytes limit of "
              + limits.maxKeptBytes()
              + " (a link counts its target's size)");
    }
    kept += size;
  }

  /**
   * Bytes taken from the tar stream; the message is returned to be thrown as an I/O error by the
   * stream.
   */
  String read(long n) {
    read += n;
    return read > limits.maxReadBytes()
        ? "the image's tar streams pass the read bytes limit of " + limits.maxReadBytes()
        : null;
  }
}
