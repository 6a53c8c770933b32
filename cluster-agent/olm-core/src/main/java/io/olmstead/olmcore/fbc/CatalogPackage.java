package io.olmstead.olmcore.fbc;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One package of a {@link Catalog}: its usable channels (the only ones resolution sees), the
 * invalid channels LENIENT validation kept visible, its valid bundles, its icon and its
 * deprecations.
 */
public final class CatalogPackage {

  private final String name;
  private final String defaultChannel;
  private final String description;
  private final Icon icon;
  private final Map<String, ChannelGraph> channels;
  private final Map<String, ChannelGraph> unusableChannels;
  private final Map<String, Bundle> bundles;
  private final Deprecation deprecation;
  private final boolean usable;

  public CatalogPackage(
      PackageMeta meta,
      Map<String, ChannelGraph> channels,
      Map<String, Bundle> bundles,
      Deprecation deprecation,
      boolean usable) {
    this(meta, channels, Map.of(), bundles, deprecation, usable);
  }

  public CatalogPackage(
      PackageMeta meta,
      Map<String, ChannelGraph> channels,
      Map<String, ChannelGraph> unusableChannels,
      Map<String, Bundle> bundles,
      Deprecation deprecation,
      boolean usable) {
    this.name = meta.name();
    this.defaultChannel = meta.defaultChannel();
    this.description = meta.description();
    this.icon = meta.icon();
    this.channels = Collections.unmodifiableMap(new LinkedHashMap<>(channels));
    this.unusableChannels = Collections.unmodifiableMap(new LinkedHashMap<>(unusableChannels));
    this.bundles = Collections.unmodifiableMap(new LinkedHashMap<>(bundles));
    this.deprecation = deprecation;
    this.usable = usable;
  }

  public String name() {
    return name;
  }

  public String defaultChannel() {
    return defaultChannel;
  }

  public String description() {
    return description;
  }

  /** The icon of the olm.package blob, still base64 (see {@link Icon#decode()}). */
  public Optional<Icon> icon() {
    return Optional.ofNullable(icon);
  }

  /** Only the usable channels: resolution, upgrade graphs and {@link #channel} see these alone. */
  public Map<String, ChannelGraph> channels() {
    return channels;
  }

  /**
   * The channels LENIENT validation found invalid, or that lead to an invalid or missing bundle, or
   * that belong to an unusable package: kept visible (their {@link ChannelGraph#errors()} say why
   * when the graph itself is broken; the validation warnings name the rest) but never used. Always
   * empty after STRICT validation.
   */
  public Map<String, ChannelGraph> unusableChannels() {
    return unusableChannels;
  }

  /** The named usable channel; a null or empty name means the default channel. */
  public Optional<ChannelGraph> channel(String channelName) {
    String n = channelName == null || channelName.isEmpty() ? defaultChannel : channelName;
    return Optional.ofNullable(n == null ? null : channels.get(n));
  }

  public Collection<Bundle> bundles() {
    return bundles.values();
  }

  public Optional<Bundle> bundle(String bundleName) {
    return Optional.ofNullable(bundleName == null ? null : bundles.get(bundleName));
  }

  /** False when the package itself is invalid (LENIENT mode keeps it visible but unusable). */
  public boolean usable() {
    return usable;
  }

  public Optional<Deprecation> deprecation() {
    return Optional.ofNullable(deprecation);
  }

  /**
   * True when the package, the channel or the bundle is listed in the package's olm.deprecations.
   */
  public boolean isDeprecated(String channelName, String bundleName) {
    if (deprecation == null) {
      return false;
    }
    for (Deprecation.Entry e : deprecation.entries()) {
      if ("olm.package".equals(e.schema())
          || "olm.channel".equals(e.schema()) && e.name() != null && e.name().equals(channelName)
          || "olm.bundle".equals(e.schema()) && e.name() != null && e.name().equals(bundleName)) {
        return true;
      }
    }
    return false;
  }
}
