package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.ChannelGraph;
import io.olmstead.olmcore.fbc.Gvk;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the resolver needs from one catalog, computed once and shared by every resolution: per
 * package its valid channels in OLM's preference order (default channel first, then by name) with
 * their installable bundles head first, the packages providing each GVK, and the ordered dependency
 * candidates per package and per GVK.
 */
final class CatalogIndex {
  /** One valid channel: bundles in candidate order (head first, skipped entries removed). */
  record ChannelView(
      String packageName,
      String name,
      boolean isDefault,
      List<Bundle> bundles,
      ChannelGraph graph) {}

  /** A dependency candidate: a bundle and the channel it is offered in (its most preferred one). */
  record Candidate(String channel, Bundle bundle) {}

  private final Map<String, List<ChannelView>> channelsByPackage = new HashMap<>();
  private final Map<Gvk, List<String>> providers = new HashMap<>();
  private final Map<Bundle, List<String>> gvkSubjects = new IdentityHashMap<>();
  private final Map<String, Set<String>> packagesBySubject = new HashMap<>();
  private final Map<String, List<Candidate>> packageCandidates = new ConcurrentHashMap<>();
  private final Map<Gvk, List<Candidate>> gvkCandidates = new ConcurrentHashMap<>();

  private CatalogIndex(Catalog catalog) {
    Map<Gvk, TreeSet<String>> gvkProviders = new HashMap<>();
    for (CatalogPackage pkg : catalog.packages()) {
      if (!pkg.usable()) {
        continue;
      }
      List<ChannelView> views = new ArrayList<>();
      for (ChannelGraph graph : pkg.channels().values()) {
        if (!graph.valid()) {
          continue;
        }
        List<Bundle> bundles = new ArrayList<>();
        for (ChannelEntry entry : graph.candidatesInOrder()) {
          pkg.bundle(entry.name()).ifPresent(bundles::add);
        }
        views.add(
            new ChannelView(
                pkg.name(),
                graph.name(),
                graph.name().equals(pkg.defaultChannel()),
                List.copyOf(bundles),
                graph));
      }
      views.sort(
          Comparator.comparing((ChannelView v) -> !v.isDefault()).thenComparing(ChannelView::name));
      channelsByPackage.put(pkg.name(), List.copyOf(views));
      for (Bundle bundle : pkg.bundles()) {
        gvkSubjects.put(bundle, subjects(bundle.providedGvks()));
        for (Gvk gvk : bundle.providedGvks()) {
          gvkProviders.computeIfAbsent(gvk, g -> new TreeSet<>()).add(pkg.name());
        }
      }
    }
    gvkProviders.forEach(
        (gvk, pkgs) -> {
          providers.put(gvk, List.copyOf(pkgs));
          packagesBySubject.computeIfAbsent(subject(gvk), k -> new HashSet<>()).addAll(pkgs);
        });
  }

  static CatalogIndex of(Catalog catalog) {
    return new CatalogIndex(catalog);
  }

  /** How the upstream messages name an API: {@code Kind (group/version)}. */
  static String subject(Gvk gvk) {
    return gvk.kind() + " (" + gvk.group() + "/" + gvk.version() + ")";
  }

  static List<String> subjects(List<Gvk> gvks) {
    List<String> out = new ArrayList<>(gvks.size());
    for (Gvk gvk : gvks) {
      String s = subject(gvk);
      if (!out.contains(s)) {
        out.add(s);
      }
    }
    return List.copyOf(out);
  }

  /** The provided-API subjects of a bundle of this catalog (precomputed). */
  List<String> gvkSubjects(Bundle bundle) {
    List<String> s = gvkSubjects.get(bundle);
    return s != null ? s : subjects(bundle.providedGvks());
  }

  /**
   * The packages of this catalog providing the API named {@code subject} ({@code Kind
   * (group/version)}).
   */
  Set<String> packagesProviding(String subject) {
    return packagesBySubject.getOrDefault(subject, Set.of());
  }

  /** Valid channels of a usable package, default channel first; empty when unknown. */
  List<ChannelView> channels(String packageName) {
    return channelsByPackage.getOrDefault(packageName, List.of());
  }

  /**
   * The bundles of a package in preference order (default channel first, head first), each once.
   */
  List<Candidate> packageCandidates(String packageName) {
    return packageCandidates.computeIfAbsent(
        packageName,
        p -> {
          List<Candidate> out = new ArrayList<>();
          Set<String> seen = new HashSet<>();
          for (ChannelView channel : channels(p)) {
            for (Bundle b : channel.bundles()) {
              if (seen.add(b.name())) {
                out.add(new Candidate(channel.name(), b));
              }
            }
          }
          return List.copyOf(out);
        });
  }

  /**
   * The bundles providing {@code gvk} in upstream order within a catalog: default channels first,
   * then by package, then by channel name; head first within a channel; each bundle once.
   */
  List<Candidate> gvkCandidates(Gvk gvk) {
    return gvkCandidates.computeIfAbsent(
        gvk,
        g -> {
          List<ChannelView> channels = new ArrayList<>();
          for (String provider : providers.getOrDefault(g, List.of())) {
            channels.addAll(channels(provider));
          }
          channels.sort(
              Comparator.comparing((ChannelView c) -> !c.isDefault())
                  .thenComparing(ChannelView::packageName)
                  .thenComparing(ChannelView::name));
          List<Candidate> out = new ArrayList<>();
          Set<String> seen = new HashSet<>();
          for (ChannelView channel : channels) {
            for (Bundle b : channel.bundles()) {
              if (b.providedGvks().contains(g) && seen.add(b.packageName() + "/" + b.name())) {
                out.add(new Candidate(channel.name(), b));
              }
            }
          }
          return List.copyOf(out);
        });
  }
}
