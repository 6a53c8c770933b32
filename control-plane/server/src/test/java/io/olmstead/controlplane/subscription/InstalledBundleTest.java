package io.olmstead.controlplane.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.subscription.OperatorGroupConflicts.HeadModes;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The install modes checked at the API are those of the bundle the version policy installs. */
class InstalledBundleTest {
  private static final List<InstalledBundle.Entry> CHANNEL =
      List.of(
          new InstalledBundle.Entry("g.v1.0.0", "1.0.0", List.of("OwnNamespace", "AllNamespaces")),
          new InstalledBundle.Entry("g.v1.5.0", "1.5.0", List.of("SingleNamespace")),
          new InstalledBundle.Entry("g.v2.0.0", "2.0.0", List.of("AllNamespaces")));

  private static HeadModes modes(VersionPolicy policy) {
    return InstalledBundle.modes(policy, "stable", "g.v2.0.0", CHANNEL);
  }

  @Test
  void aPinnedSubscriptionIsCheckedAgainstThePinnedBundle() {
    assertThat(modes(new VersionPolicy(VersionPolicy.Kind.PIN, "1.0.0")))
        .isEqualTo(new HeadModes("g.v1.0.0", List.of("OwnNamespace", "AllNamespaces")));
  }

  @Test
  void aRangeIsCheckedAgainstItsHighestBundle() {
    assertThat(modes(new VersionPolicy(VersionPolicy.Kind.RANGE, ">=1.0.0 <2.0.0")).bundle())
        .isEqualTo("g.v1.5.0");
  }

  @Test
  void followingTheChannelIsCheckedAgainstItsHead() {
    assertThat(modes(VersionPolicy.followChannel()))
        .isEqualTo(new HeadModes("g.v2.0.0", List.of("AllNamespaces")));
  }

  @Test
  void aPolicyNamingNoBundleOfTheChannelLeavesTheModesUnknown() {
    assertThat(modes(new VersionPolicy(VersionPolicy.Kind.PIN, "3.0.0")))
        .isEqualTo(HeadModes.UNKNOWN);
  }
}
