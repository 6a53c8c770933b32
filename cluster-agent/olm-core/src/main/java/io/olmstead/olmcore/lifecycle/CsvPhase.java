package io.olmstead.olmcore.lifecycle;

import java.util.Optional;

/** The phases of a ClusterServiceVersion, with OLM's wire names. */
public enum CsvPhase {
  NONE(""),
  PENDING("Pending"),
  INSTALL_READY("InstallReady"),
  INSTALLING("Installing"),
  SUCCEEDED("Succeeded"),
  FAILED("Failed"),
  REPLACING("Replacing"),
  DELETING("Deleting"),
  UNKNOWN("Unknown");

  private final String wireName;

  CsvPhase(String wireName) {
    this.wireName = wireName;
  }

  /** The value of {@code status.phase}. */
  public String wireName() {
    return wireName;
  }

  /** The phase for a {@code status.phase} value; empty for a value OLM does not define. */
  public static Optional<CsvPhase> fromWireName(String name) {
    for (CsvPhase p : values()) {
      if (p.wireName.equals(name == null ? "" : name)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
