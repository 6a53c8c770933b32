package io.olmstead.olmcore.resolver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.Channel;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.ChannelGraph;
import io.olmstead.olmcore.fbc.PackageMeta;
import io.olmstead.olmcore.fbc.Property;
import io.olmstead.olmcore.semver.Version;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A compact builder of small indexed catalogs for resolver tests, in the spirit of upstream's
 * genOperator: {@code b("a.v2").in("a", "alpha").version("1.0.0").replaces("a.v1").provides("g",
 * "v", "k")}. Built without validation, so upstream cases with duplicate versions or broken
 * channels can be expressed.
 */
final class TestCatalog {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private final List<B> bundles = new ArrayList<>();
  private final Map<String, String> defaultChannels = new HashMap<>();

  /** One channel entry of one bundle (the same bundle name may appear in several channels). */
  static final class B {
    final String name;
    String pkg;
    String channel;
    String version;
    String replaces;
    List<String> skips = List.of();
    String skipRange;
    final List<Property> properties = new ArrayList<>();

    B(String name) {
      this.name = name;
    }

    B in(String pkg, String channel) {
      this.pkg = pkg;
      this.channel = channel;
      return this;
    }

    B version(String version) {
      this.version = version;
      return this;
    }

    B replaces(String replaces) {
      this.replaces = replaces;
      return this;
    }

    B skips(String... skips) {
      this.skips = List.of(skips);
      return this;
    }

    B skipRange(String skipRange) {
      this.skipRange = skipRange;
      return this;
    }

    B provides(String group, String version, String kind) {
      properties.add(new Property("olm.gvk", gvk(group, version, kind)));
      return this;
    }

    B requiresGvk(String group, String version, String kind) {
      properties.add(new Property("olm.gvk.required", gvk(group, version, kind)));
      return this;
    }

    B requiresPackage(String packageName, String range) {
      properties.add(
          new Property(
              "olm.package.required",
              JSON.objectNode().put("packageName", packageName).put("versionRange", range)));
      return this;
    }

    private static ObjectNode gvk(String group, String version, String kind) {
      return JSON.objectNode().put("group", group).put("version", version).put("kind", kind);
    }
  }

  static B b(String name) {
    return new B(name);
  }

  TestCatalog add(B... entries) {
    bundles.addAll(List.of(entries));
    return this;
  }

  TestCatalog defaultChannel(String pkg, String channel) {
    defaultChannels.put(pkg, channel);
    return this;
  }

  Catalog build() {
    Map<String, Map<String, List<ChannelEntry>>> channels = new LinkedHashMap<>();
    Map<String, Map<String, Bundle>> bundlesByPkg = new LinkedHashMap<>();
    for (B b : bundles) {
      channels
          .computeIfAbsent(b.pkg, p -> new LinkedHashMap<>())
          .computeIfAbsent(b.channel, c -> new ArrayList<>())
          .add(new ChannelEntry(b.name, b.replaces, b.skips, b.skipRange));
      bundlesByPkg
          .computeIfAbsent(b.pkg, p -> new LinkedHashMap<>())
          .computeIfAbsent(b.name, n -> toBundle(b));
    }
    List<CatalogPackage> packages = new ArrayList<>();
    for (var pkg : channels.entrySet()) {
      Map<String, Version> versions = new HashMap<>();
      bundlesByPkg
          .get(pkg.getKey())
          .forEach((n, bundle) -> bundle.version().ifPresent(v -> versions.put(n, v)));
      Map<String, ChannelGraph> graphs = new LinkedHashMap<>();
      pkg.getValue()
          .forEach(
              (ch, entries) ->
                  graphs.put(
                      ch, ChannelGraph.of(new Channel(pkg.getKey(), ch, entries), versions)));
      String defaultChannel =
          defaultChannels.getOrDefault(pkg.getKey(), pkg.getValue().keySet().iterator().next());
      packages.add(
          new CatalogPackage(
              new PackageMeta(pkg.getKey(), defaultChannel, null),
              graphs,
              bundlesByPkg.get(pkg.getKey()),
              null,
              true));
    }
    return new Catalog(packages);
  }

  private static Bundle toBundle(B b) {
    List<Property> props = new ArrayList<>();
    // Like upstream's test bundles, a bundle without an explicit version is 0.0.0.
    ObjectNode pkg =
        JSON.objectNode()
            .put("packageName", b.pkg)
            .put("version", b.version == null ? "0.0.0" : b.version);
    props.add(new Property("olm.package", pkg));
    props.addAll(b.properties);
    return new Bundle(b.pkg, b.name, "example.com/" + b.name, props, List.of());
  }
}
