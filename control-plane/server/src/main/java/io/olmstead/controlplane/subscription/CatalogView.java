package io.olmstead.controlplane.subscription;

import io.olmstead.olmcore.semver.Version;
import java.util.Map;
import java.util.Optional;

/**
 * What desired-state computation and subscription validation need from one catalog's current
 * revision: its digest and, per package, the channels with their head and the versions of the
 * bundles in each channel.
 */
public record CatalogView(String name, String digest, Map<String, PackageView> packages) {

  public CatalogView {
    packages = Map.copyOf(packages);
  }

  public Optional<PackageView> pkg(String packageName) {
    return Optional.ofNullable(packageName == null ? null : packages.get(packageName));
  }

  /** One package: its default channel and its usable channels by name. */
  public record PackageView(String name, String defaultChannel, Map<String, ChannelView> channels) {
    public PackageView {
      channels = Map.copyOf(channels);
    }

    /** The named channel; null or empty means the default channel. */
    public Optional<ChannelView> channel(String channelName) {
      String n = channelName == null || channelName.isEmpty() ? defaultChannel : channelName;
      return Optional.ofNullable(n == null ? null : channels.get(n));
    }
  }

  /**
   * One channel: its head bundle (null when the graph has none) and each bundle's version
   * (unversioned left out).
   */
  public record ChannelView(String name, String head, Map<String, Version> bundleVersions) {
    public ChannelView {
      bundleVersions = Map.copyOf(bundleVersions);
    }

    public Optional<Version> headVersion() {
      return Optional.ofNullable(head == null ? null : bundleVersions.get(head));
    }

    /**
     * The bundle of this channel carrying exactly this version (build metadata ignored), if any.
     */
    public Optional<String> bundleWithVersion(Version version) {
      return bundleVersions.entrySet().stream()
          .filter(e -> e.getValue().compareTo(version) == 0)
          .map(Map.Entry::getKey)
          .sorted()
          .findFirst();
    }
  }
}
