package io.olmstead.olmcore.fbc;

import io.olmstead.olmcore.semver.Version;
import io.olmstead.olmcore.semver.VersionException;
import io.olmstead.olmcore.semver.VersionRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The upgrade graph of one channel (OLM-SEMANTICS §2-3): head, replaces chain, validity errors and
 * the OLM v0 choice of the next bundle.
 */
public final class ChannelGraph {

  /**
   * Entries without a name are reported by CatalogValidator; here they only must not break sorting.
   */
  private static final Comparator<String> NAME_ORDER =
      Comparator.nullsFirst(Comparator.naturalOrder());

  private final String packageName;
  private final String name;
  private final List<ChannelEntry> entries;
  private final Map<String, ChannelEntry> byName;
  private final Map<String, Version> versions;
  private final Map<String, VersionRange> skipRanges;
  private final Map<String, String> skipRangeErrors;
  private final String head;
  private final List<String> errors;
  private final List<ChannelEntry> candidates;

  private ChannelGraph(Channel channel, Map<String, Version> versionsByBundle) {
    this.packageName = channel.packageName();
    this.name = channel.name();
    this.entries = channel.entries();
    this.versions = versionsByBundle == null ? Map.of() : versionsByBundle;
    List<String> errs = new ArrayList<>();
    Map<String, ChannelEntry> map = new LinkedHashMap<>(entries.size() * 2);
    Set<String> skipped = new HashSet<>();
    Map<String, VersionRange> ranges = new HashMap<>();
    Map<String, String> rangeErrors = new LinkedHashMap<>();
    for (ChannelEntry e : entries) {
      if (map.putIfAbsent(e.name(), e) != null) {
        errs.add("duplicate entry \"" + e.name() + "\"");
      }
      skipped.addAll(e.skips());
      if (e.skipRange() != null && !e.skipRange().isEmpty()) {
        try {
          ranges.put(e.name(), VersionRange.parse(e.skipRange()));
        } catch (VersionException ex) {
          // reported per bundle by CatalogValidator; an unparsable range matches nothing here
          rangeErrors.putIfAbsent(e.name(), ex.getMessage());
        } catch (RuntimeException ex) {
          // defensive: a range parser bug must not escape the graph API
          rangeErrors.putIfAbsent(e.name(), String.valueOf(ex.getMessage()));
        }
      }
    }
    this.byName = Collections.unmodifiableMap(map);
    this.skipRanges = ranges;
    this.skipRangeErrors = Collections.unmodifiableMap(rangeErrors);
    String h = null;
    if (entries.isEmpty()) {
      errs.add("channel must contain at least one bundle");
    } else {
      h = findHead(skipped, errs);
      if (h != null) {
        validateReplacesChain(h, skipped, errs);
      }
    }
    this.head = h;
    this.errors = List.copyOf(errs);
    this.candidates = h == null ? List.of() : order(h, skipped);
  }

  /**
   * Builds the graph of a channel; {@code versionsByBundle} gives each bundle's version for
   * skipRange and ceilings.
   */
  public static ChannelGraph of(Channel channel, Map<String, Version> versionsByBundle) {
    return new ChannelGraph(channel, versionsByBundle);
  }

  private String findHead(Set<String> skipped, List<String> errs) {
    List<String> heads = new ArrayList<>(1);
    for (String n : byName.keySet()) {
      if (!skipped.contains(n) && !isReplaced(n)) {
        heads.add(n);
      }
    }
    if (heads.isEmpty()) {
      errs.add("no channel head found in graph");
      return null;
    }
    if (heads.size() > 1) {
      heads.sort(NAME_ORDER);
      errs.add("multiple channel heads found in graph: " + String.join(", ", heads));
      return null;
    }
    return heads.get(0);
  }

  private Set<String> replacedCache;

  private boolean isReplaced(String n) {
    if (replacedCache == null) {
      replacedCache = new HashSet<>();
      for (ChannelEntry e : entries) {
        if (e.replaces() != null && !e.replaces().isEmpty()) {
          replacedCache.add(e.replaces());
        }
      }
    }
    return replacedCache.contains(n);
  }

  /**
   * Walks the replaces chain from the head: detects cycles and entries neither reached nor skipped.
   */
  private void validateReplacesChain(String h, Set<String> skipped, List<String> errs) {
    List<String> path = new ArrayList<>();
    Set<String> onChain = new HashSet<>();
    path.add(h);
    onChain.add(h);
    ChannelEntry cur = byName.get(h);
    while (cur != null) {
      String r = cur.replaces();
      // an edge to an entry that something skips is disregarded: the walk ends there
      if (r == null || r.isEmpty() || skipped.contains(r)) {
        break;
      }
      if (onChain.contains(r)) {
        List<String> cycle = new ArrayList<>(path.subList(path.indexOf(r), path.size()));
        cycle.add(r);
        errs.add(
            "detected cycle in replaces chain of upgrade graph: " + String.join(" -> ", cycle));
        return;
      }
      path.add(r);
      onChain.add(r);
      cur = byName.get(r);
    }
    Set<String> stranded = new TreeSet<>(NAME_ORDER);
    for (String n : byName.keySet()) {
      if (!onChain.contains(n) && !skipped.contains(n)) {
        stranded.add(n);
      }
    }
    if (!stranded.isEmpty()) {
      errs.add("channel contains one or more stranded bundles: " + String.join(", ", stranded));
    }
  }

  private List<ChannelEntry> order(String h, Set<String> skipped) {
    List<ChannelEntry> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    ChannelEntry cur = byName.get(h);
    while (cur != null && seen.add(cur.name())) {
      if (!skipped.contains(cur.name())) {
        out.add(cur);
      }
      cur = cur.replaces() == null ? null : byName.get(cur.replaces());
    }
    return List.copyOf(out);
  }

  public String packageName() {
    return packageName;
  }

  public String name() {
    return name;
  }

  /** The channel head; empty when the graph has no single head. */
  public Optional<String> head() {
    return Optional.ofNullable(head);
  }

  /** Graph errors in upstream wording; empty for a valid channel. */
  public List<String> errors() {
    return errors;
  }

  public boolean valid() {
    return errors.isEmpty();
  }

  public List<ChannelEntry> entries() {
    return entries;
  }

  public Optional<ChannelEntry> entry(String bundle) {
    return Optional.ofNullable(bundle == null ? null : byName.get(bundle));
  }

  /**
   * Entries whose skipRange does not parse, with the parser's message (such a range matches
   * nothing).
   */
  public Map<String, String> skipRangeErrors() {
    return skipRangeErrors;
  }

  /** Entries from the head down the replaces chain, without entries any other entry skips. */
  public List<ChannelEntry> candidatesInOrder() {
    return candidates;
  }

  /** The version of a bundle of this channel as given at construction, if known. */
  public Optional<Version> versionOf(String bundle) {
    return Optional.ofNullable(bundle == null ? null : versions.get(bundle));
  }

  /**
   * Candidates that may replace the installed bundle, nearest the head first: {@code replaces ==
   * installed}, installed in {@code skips}, or {@code skipRange} contains the installed version.
   * Candidates above the ceiling (when given) are ignored.
   */
  public List<ChannelEntry> successorsOf(
      String installedBundle, Version installedVersion, Version ceilingOrNull) {
    List<ChannelEntry> out = new ArrayList<>(2);
    for (ChannelEntry c : candidates) {
      if (Objects.equals(c.name(), installedBundle)
          || !qualifies(c, installedBundle, installedVersion)) {
        continue;
      }
      if (ceilingOrNull != null) {
        Version v = versions.get(c.name());
        if (v == null || v.compareTo(ceilingOrNull) > 0) {
          continue;
        }
      }
      out.add(c);
    }
    return out;
  }

  private boolean qualifies(ChannelEntry c, String installed, Version installedVersion) {
    if (installed != null && (installed.equals(c.replaces()) || c.skips().contains(installed))) {
      return true;
    }
    VersionRange range = skipRanges.get(c.name());
    return range != null && installedVersion != null && range.contains(installedVersion);
  }

  /** The qualifying candidate nearest the head (OLM v0's choice, before dependency checks). */
  public Optional<ChannelEntry> next(
      String installedBundle, Version installedVersion, Version ceilingOrNull) {
    List<ChannelEntry> s = successorsOf(installedBundle, installedVersion, ceilingOrNull);
    return s.isEmpty() ? Optional.empty() : Optional.of(s.get(0));
  }

  /**
   * The chain of single upgrade steps from {@code fromBundle} (excluded) until no successor
   * remains.
   */
  public List<ChannelEntry> upgradePath(String fromBundle, Version ceilingOrNull) {
    List<ChannelEntry> path = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    seen.add(fromBundle);
    String cur = fromBundle;
    while (true) {
      Optional<ChannelEntry> step = next(cur, versions.get(cur), ceilingOrNull);
      if (step.isEmpty() || !seen.add(step.get().name())) {
        return path;
      }
      path.add(step.get());
      cur = step.get().name();
    }
  }

  @Override
  public String toString() {
    return "ChannelGraph["
        + packageName
        + "/"
        + name
        + ", head="
        + head
        + ", entries="
        + entries.size()
        + "]";
  }
}
