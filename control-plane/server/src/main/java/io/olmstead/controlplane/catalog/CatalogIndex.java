package io.olmstead.controlplane.catalog;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.ChannelGraph;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The query index of a validated catalog, as rows for the {@code catalog_packages/channels/bundles}
 * tables.
 */
public record CatalogIndex(
    List<PackageRow> packages, List<ChannelRow> channels, List<BundleRow> bundles) {

  /**
   * One package, with its {@code olm.deprecations} entries ({@code schema}, {@code name}, {@code
   * message}).
   */
  public record PackageRow(
      String name,
      String defaultChannel,
      String description,
      boolean usable,
      JsonArray deprecations) {}

  /** One usable channel with its entries in catalog order. */
  public record ChannelRow(String packageName, String name, String head, JsonArray entries) {}

  /**
   * One bundle with its version text, the channels that list it, its {@code
   * olm.maxOpenShiftVersion}, whether it embeds its objects and the install modes it supports
   * (null: the catalog does not tell).
   */
  public record BundleRow(
      String packageName,
      String name,
      String version,
      String image,
      List<String> channels,
      String maxOpenShiftVersion,
      boolean embedded,
      List<String> installModes) {}

  public static CatalogIndex of(Catalog catalog) {
    List<PackageRow> packages = new ArrayList<>();
    List<ChannelRow> channels = new ArrayList<>();
    List<BundleRow> bundles = new ArrayList<>();
    for (CatalogPackage p : catalog.packages()) {
      packages.add(
          new PackageRow(
              p.name(), p.defaultChannel(), p.description(), p.usable(), deprecations(p)));
      Map<String, List<String>> channelsOfBundle = new TreeMap<>();
      for (ChannelGraph graph : p.channels().values()) {
        channels.add(
            new ChannelRow(p.name(), graph.name(), graph.head().orElse(null), entries(graph)));
        for (ChannelEntry entry : graph.entries()) {
          channelsOfBundle.computeIfAbsent(entry.name(), k -> new ArrayList<>()).add(graph.name());
        }
      }
      for (Bundle b : p.bundles()) {
        String version = b.version().map(Object::toString).orElse(b.versionText());
        bundles.add(
            new BundleRow(
                p.name(),
                b.name(),
                version,
                b.image(),
                channelsOfBundle.getOrDefault(b.name(), List.of()),
                b.maxOpenShiftVersion().map(Object::toString).orElse(null),
                !b.objects().isEmpty(),
                BundleInstallModes.of(b)));
      }
    }
    return new CatalogIndex(packages, channels, bundles);
  }

  private static JsonArray deprecations(CatalogPackage p) {
    JsonArray out = new JsonArray();
    p.deprecation()
        .ifPresent(
            d ->
                d.entries()
                    .forEach(
                        e ->
                            out.add(
                                new JsonObject()
                                    .put("schema", e.schema())
                                    .put("name", e.name())
                                    .put("message", e.message()))));
    return out;
  }

  static JsonArray entries(ChannelGraph graph) {
    JsonArray out = new JsonArray();
    for (ChannelEntry e : graph.entries()) {
      JsonObject entry = new JsonObject().put("name", e.name());
      if (e.replaces() != null) {
        entry.put("replaces", e.replaces());
      }
      if (!e.skips().isEmpty()) {
        entry.put("skips", new JsonArray(new ArrayList<>(e.skips())));
      }
      if (e.skipRange() != null) {
        entry.put("skipRange", e.skipRange());
      }
      out.add(entry);
    }
    return out;
  }
}
