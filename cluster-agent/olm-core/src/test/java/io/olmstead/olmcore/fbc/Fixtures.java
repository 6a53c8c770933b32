package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Small builders for hand-made catalogs in tests (names follow upstream's test helpers:
 * foo.v0.1.0).
 */
final class Fixtures {

  static final ObjectMapper JSON = new ObjectMapper();

  private Fixtures() {}

  static PackageMeta pkg(String name, String defaultChannel) {
    return new PackageMeta(name, defaultChannel, null);
  }

  static ChannelEntry entry(String name) {
    return new ChannelEntry(name, null, List.of(), null);
  }

  static ChannelEntry entry(String name, String replaces, String skipRange, String... skips) {
    return new ChannelEntry(name, replaces, Arrays.asList(skips), skipRange);
  }

  static Channel channel(String pkg, String name, ChannelEntry... entries) {
    return new Channel(pkg, name, List.of(entries));
  }

  static Bundle bundle(String pkg, String version) {
    return bundle(pkg, pkg + ".v" + version, version, "quay.io/" + pkg + ":v" + version);
  }

  static Bundle bundle(String pkg, String name, String version, String image) {
    return new Bundle(pkg, name, image, List.of(packageProperty(pkg, version)), List.of());
  }

  static Bundle bundleWith(String pkg, String name, String image, Property... props) {
    return new Bundle(pkg, name, image, List.of(props), List.of());
  }

  static Property packageProperty(String pkg, String version) {
    ObjectNode v = JSON.createObjectNode().put("packageName", pkg).put("version", version);
    return new Property("olm.package", v);
  }

  /** A property whose value is given as JSON text (null for a property without a value). */
  static Property prop(String type, String valueJson) {
    try {
      return new Property(type, valueJson == null ? null : JSON.readTree(valueJson));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(valueJson, e);
    }
  }

  /** The usual valid foo.v0.1.0 bundle with extra properties after its olm.package. */
  static Bundle fooWith(Property... extra) {
    List<Property> props = new ArrayList<>();
    props.add(packageProperty("foo", "0.1.0"));
    props.addAll(List.of(extra));
    return new Bundle("foo", "foo.v0.1.0", "quay.io/foo:v0.1.0", props, List.of());
  }

  static Deprecation deprecation(String pkg, Deprecation.Entry... entries) {
    return new Deprecation(pkg, List.of(entries));
  }

  static Deprecation.Entry deprecated(String schema, String name, String message) {
    return new Deprecation.Entry(schema, name, message);
  }

  /** A mutable builder of a DeclarativeConfig. */
  static final class Cfg {
    final List<PackageMeta> packages = new ArrayList<>();
    final List<Channel> channels = new ArrayList<>();
    final List<Bundle> bundles = new ArrayList<>();
    final List<Deprecation> deprecations = new ArrayList<>();

    Cfg pkgs(PackageMeta... p) {
      packages.addAll(List.of(p));
      return this;
    }

    Cfg channels(Channel... c) {
      channels.addAll(List.of(c));
      return this;
    }

    Cfg bundles(Bundle... b) {
      bundles.addAll(List.of(b));
      return this;
    }

    Cfg deprecations(Deprecation... d) {
      deprecations.addAll(List.of(d));
      return this;
    }

    DeclarativeConfig build() {
      return new DeclarativeConfig(packages, channels, bundles, deprecations, List.of());
    }
  }

  /** Package foo with channel alpha holding just this foo.v0.1.0 bundle. */
  static Cfg fooCatalog(Bundle fooV010) {
    return new Cfg()
        .pkgs(pkg("foo", "alpha"))
        .channels(channel("foo", "alpha", entry("foo.v0.1.0")))
        .bundles(fooV010);
  }

  /** The usual valid package: foo, channel alpha with foo.v0.1.0. */
  static Cfg validFoo() {
    return new Cfg()
        .pkgs(pkg("foo", "alpha"))
        .channels(channel("foo", "alpha", entry("foo.v0.1.0")))
        .bundles(bundle("foo", "0.1.0"));
  }
}
