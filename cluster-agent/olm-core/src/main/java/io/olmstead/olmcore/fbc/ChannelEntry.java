package io.olmstead.olmcore.fbc;

import java.util.List;

/**
 * One entry of an {@code olm.channel}; {@code replaces} and {@code skipRange} may be null, {@code
 * skips} never is.
 */
public record ChannelEntry(String name, String replaces, List<String> skips, String skipRange) {

  public ChannelEntry {
    skips = skips == null ? List.of() : List.copyOf(skips);
  }
}
