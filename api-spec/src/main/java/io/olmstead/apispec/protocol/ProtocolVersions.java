package io.olmstead.apispec.protocol;

import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;

/**
 * The protocol versions this build speaks and the negotiation rule: the highest version both sides
 * accept.
 */
public final class ProtocolVersions {
  public static final int CURRENT = 1;
  public static final List<Integer> SUPPORTED = List.of(1);

  private ProtocolVersions() {}

  public static OptionalInt negotiate(Collection<Integer> offered) {
    return offered.stream().filter(SUPPORTED::contains).mapToInt(Integer::intValue).max();
  }
}
