package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.Gvk;
import io.olmstead.olmcore.graph.ChannelGraph;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
  * What the resolver needs from one catalog, computed once: per package its valid channels in OLM's preference
  * order (default channel first, then by name) with their installable bundles head first, and the packages
  * providing each GVK.
  */
final class CatalogIndex {
    /** One valid channel: bundles in candidate order (head first, skipped entries removed). */
    record ChannelView(String packageName, String name, boolean isDefault, List<Bundle> bundles, ChannelGraph graph) {}

    private final Map<String, List<ChannelView>> channelsByPackage = new HashMap<>();
    private final Map<Gvk, List<String>> providers = new HashMap<>();

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
                views.add(new ChannelView(pkg.name(), graph.name(), graph.name().equals(pkg.defaultChannel()),
                        List.copyOf(bundles), graph));
            }
            views.sort(Comparator.comparing((ChannelView v) -> !v.isDefault()).thenComparing(ChannelView::name));
            channelsByPackage.put(pkg.name(), List.copyOf(views));
            for (Bundle bundle : pkg.bundles()) {
                for (Gvk gvk : bundle.providedGvks()) {
                    gvkProviders.computeIfAbsent(gvk, g -> new TreeSet<>()).add(pkg.name());
                }
            }
        }
        gvkProviders.forEach((gvk, pkgs) -> providers.put(gvk, List.copyOf(pkgs)));
    }

    static CatalogIndex of(Catalog catalog) {
        return new CatalogIndex(catalog);
    }

    /** Valid channels of a usable package, default channel first; empty when unknown. */
    List<ChannelView> channels(String packageName) {
        return channelsByPackage.getOrDefault(packageName, List.of());
    }

    /** Names of usable packages with a bundle providing {@code gvk}, sorted. */
    List<String> providersOf(Gvk gvk) {
        return providers.getOrDefault(gvk, List.of());
    }
}
