package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.ChannelEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * OLM v0's ordering of a channel's entries for resolution (its {@code sortChannel}): one
 * replacement chain from the single head, entries skipped by another entry left out. Used to order
 * candidates and to explain, in upstream's words, why a subscription's channel cannot be ordered.
 */
final class ChannelOrder {
  /** The ordered entry names, or the upstream error. */
  record Result(List<String> order, String error) {
    Optional<String> failure() {
      return Optional.ofNullable(error);
    }
  }

  private ChannelOrder() {}

  static Result sort(String packageName, String channelName, List<ChannelEntry> entries) {
    if (entries == null || entries.isEmpty()) {
      return new Result(List.of(), null);
    }
    Map<String, ChannelEntry> byName = new HashMap<>();
    for (ChannelEntry e : entries) {
      byName.putIfAbsent(e.name(), e);
    }
    Set<String> replacedOrSkipped = new HashSet<>();
    Set<String> skipped = new HashSet<>();
    for (ChannelEntry e : entries) {
      if (e.replaces() != null && byName.containsKey(e.replaces())) {
        replacedOrSkipped.add(e.replaces());
      }
      for (String s : e.skips()) {
        if (byName.containsKey(s)) {
          replacedOrSkipped.add(s);
          skipped.add(s);
        }
      }
    }
    Set<String> heads = new LinkedHashSet<>();
    for (ChannelEntry e : entries) {
      if (!replacedOrSkipped.contains(e.name())) {
        heads.add(e.name());
      }
    }
    String where = " in channel \"" + channelName + "\" of package \"" + packageName + "\"";
    if (heads.isEmpty()) {
      return new Result(
          List.of(), "no channel heads (entries not replaced by another entry) found" + where);
    }
    List<List<String>> chains = new ArrayList<>();
    for (String head : heads) {
      List<String> chain = new ArrayList<>();
      Set<String> visited = new HashSet<>();
      ChannelEntry current = byName.get(head);
      while (current != null) {
        visited.add(current.name());
        if (!skipped.contains(current.name())) {
          chain.add(current.name());
        }
        ChannelEntry next = current.replaces() == null ? null : byName.get(current.replaces());
        if (next != null && visited.contains(next.name())) {
          return new Result(
              List.of(),
              "a cycle exists in the chain of replacement beginning with \"" + head + "\"" + where);
        }
        current = next;
      }
      chains.add(chain);
    }
    if (chains.size() > 1) {
      List<String> described = new ArrayList<>();
      for (List<String> chain : chains) {
        described.add(
            chain.isEmpty()
                ? "[]"
                : chain.size() == 1
                    ? chain.get(0)
                    : chain.get(0) + "..." + chain.get(chain.size() - 1));
      }
      return new Result(
          List.of(),
          "a unique replacement chain within a channel is required to determine the relative order"
              + " between channel entries, but "
              + chains.size()
              + " replacement chains were found"
              + where
              + ": "
              + String.join(", ", described));
    }
    return new Result(List.copyOf(chains.get(0)), null);
  }
}
