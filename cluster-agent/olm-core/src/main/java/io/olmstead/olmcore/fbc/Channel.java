package io.olmstead.olmcore.fbc;

import java.util.List;

/** An {@code olm.channel} blob: the upgrade edges of one channel of a package. */
public record Channel(String packageName, String name, List<ChannelEntry> entries) {

  public Channel {
    entries = entries == null ? List.of() : List.copyOf(entries);
  }
}
