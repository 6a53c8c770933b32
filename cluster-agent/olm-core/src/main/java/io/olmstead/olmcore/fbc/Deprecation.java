package io.olmstead.olmcore.fbc;

import java.util.List;

/** An {@code olm.deprecations} blob of one package. */
public record Deprecation(String packageName, List<Entry> entries) {

  public Deprecation {
    entries = entries == null ? List.of() : List.copyOf(entries);
  }

  /**
   * One deprecated reference: {@code schema} is olm.package, olm.channel or olm.bundle; name is
   * null for olm.package.
   */
  public record Entry(String schema, String name, String message) {}
}
