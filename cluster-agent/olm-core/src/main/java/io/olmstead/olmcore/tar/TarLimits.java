package io.olmstead.olmcore.tar;

/**
 * Budgets for reading the tar streams of one untrusted image or archive, spent while streaming and
 * never given back: entries (links included), links, bytes of one kept file, bytes kept in all (a
 * link counts its target's size each time), bytes read in all (kept or skipped, headers included: a
 * gzip bomb stops early) and bytes of the extended headers (GNU long name/link, PAX) of one entry.
 */
public record TarLimits(
    int maxEntries,
    int maxLinks,
    long maxFileBytes,
    long maxKeptBytes,
    long maxReadBytes,
    int maxHeaderBytes) {

  public static final long MIB = 1024L * 1024L;
  static final int HEADER_BYTES = 64 * 1024;

  public TarLimits {
    if (maxEntries <= 0
        || maxLinks < 0
        || maxFileBytes <= 0
        || maxKeptBytes <= 0
        || maxReadBytes <= 0
        || maxHeaderBytes <= 0) {
      throw new IllegalArgumentException("tar limits must be positive");
    }
  }

  /**
   * A bundle image: 10,000 entries, 1,000 links, 4 MiB a file (a Kubernetes object is at most 1.5
   * MiB in etcd), 16 MiB kept, 32 MiB read, 64 KiB headers.
   */
  public static TarLimits bundleImage() {
    return new TarLimits(10_000, 1_000, 4 * MIB, 16 * MIB, 32 * MIB, HEADER_BYTES);
  }

  /**
   * A catalog image's FBC directory (its other layers, such as opm, are read and skipped): 100,000
   * entries, 1,000 links, 16 MiB a file, 32 MiB kept, 256 MiB read, 64 KiB headers.
   */
  public static TarLimits catalogImage() {
    return new TarLimits(100_000, 1_000, 16 * MIB, 32 * MIB, 256 * MIB, HEADER_BYTES);
  }

  /**
   * A catalog archive whose content may reach {@code keptBytes}: reading it may take twice that.
   */
  public static TarLimits catalogArchive(long keptBytes) {
    return new TarLimits(100_000, 1_000, keptBytes, keptBytes, 2 * keptBytes, HEADER_BYTES);
  }
}
