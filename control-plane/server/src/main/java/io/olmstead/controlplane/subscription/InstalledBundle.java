package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.OperatorGroupConflicts.HeadModes;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.olmcore.semver.Version;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bundle a subscription's version policy installs from its channel (the pinned version, the
 * highest inside the range, else the channel head, as {@link DesiredState#ceiling} decides) with
 * the install modes the catalog gives it: the bundle whose modes the API checks. Pure.
 */
final class InstalledBundle {
  /**
   * One bundle of the channel: its version text and supported install modes (null: the catalog does
   * not tell).
   */
  record Entry(String bundle, String version, List<String> modes) {}

  private InstalledBundle() {}

  /** The bundle and its modes; unknown when the policy names no bundle of the channel. */
  static HeadModes modes(VersionPolicy policy, String channel, String head, List<Entry> entries) {
    Map<String, Version> versions = new HashMap<>();
    for (Entry e : entries) {
      Version.tryParse(e.version()).ifPresent(v -> versions.put(e.bundle(), v));
    }
    String bundle =
        policy == null || policy.kind() == VersionPolicy.Kind.FOLLOW
            ? head
            : DesiredState.ceiling(policy, new ChannelView(channel, head, versions))
                .startingBundle();
    if (bundle == null) {
      return HeadModes.UNKNOWN;
    }
    return entries.stream()
        .filter(e -> bundle.equals(e.bundle()))
        .findFirst()
        .map(e -> new HeadModes(bundle, e.modes()))
        .orElse(HeadModes.UNKNOWN);
  }
}
