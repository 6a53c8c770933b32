package io.olmstead.controlplane.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.CatalogView.PackageView;
import io.olmstead.controlplane.subscription.SubscriptionSpec.Placement;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy.Kind;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DesiredStateTest {
  private static final ChannelView STABLE =
      new ChannelView(
          "stable",
          "etcd.v0.9.4",
          Map.of(
              "etcd.v0.9.0",
              v("0.9.0"),
              "etcd.v0.9.2",
              v("0.9.2"),
              "etcd.v0.9.4",
              v("0.9.4"),
              "etcd.v1.0.0-rc.1",
              v("1.0.0-rc.1")));
  private static final ChannelView ALPHA =
      new ChannelView(
          "alpha", "etcd.v1.1.0", Map.of("etcd.v1.0.0", v("1.0.0"), "etcd.v1.1.0", v("1.1.0")));
  private static final Map<String, CatalogView> CATALOGS =
      Map.of(
          "community",
          new CatalogView(
              "community",
              "sha256:abc",
              Map.of(
                  "etcd",
                  new PackageView("etcd", "stable", Map.of("stable", STABLE, "alpha", ALPHA)))));
  private static final DesiredState.Cluster PROD_EU =
      new DesiredState.Cluster("prod-eu-1", Map.of("env", "prod", "region", "eu"));

  private static Version v(String text) {
    return Version.tryParse(text).orElseThrow();
  }

  private static Subscription sub(
      String name, String channel, VersionPolicy policy, Placement placement, String team) {
    SubscriptionSpec spec =
        new SubscriptionSpec(
            name,
            "community",
            "etcd",
            channel,
            "etcd",
            List.of("etcd"),
            placement,
            policy,
            SubscriptionSpec.AUTOMATIC,
            new JsonObject().put("env", "x"),
            team,
            null);
    return new Subscription(spec, 3, 7, "admin", null, null);
  }

  private static Subscription everywhere(String name, String channel, VersionPolicy policy) {
    return sub(name, channel, policy, new Placement("", List.of()), null);
  }

  private static ComputedSubscription only(Subscription s) {
    List<ComputedSubscription> out = DesiredState.forCluster(PROD_EU, List.of(s), CATALOGS);
    assertThat(out).hasSize(1);
    return out.get(0);
  }

  @Test
  void followChannelAllowsTheChannelHeadAndStartsAtTheHead() {
    ComputedSubscription d = only(everywhere("etcd", null, VersionPolicy.followChannel()));
    assertThat(d.channel()).isEqualTo("stable");
    assertThat(d.maxVersion()).isEqualTo("0.9.4");
    assertThat(d.startingBundle()).isNull();
    assertThat(d.catalogDigest()).isEqualTo("sha256:abc");
    assertThat(d.blockedReason()).isNull();
    assertThat(d.generation()).isEqualTo(3);
    assertThat(d.config().getString("env")).isEqualTo("x");
    assertThat(d.crdRemoval()).isEqualTo("Keep");
  }

  @Test
  void pinAllowsExactlyThePinnedVersionAndStartsAtItsBundle() {
    ComputedSubscription d =
        only(everywhere("etcd", "stable", new VersionPolicy(Kind.PIN, "0.9.2")));
    assertThat(d.maxVersion()).isEqualTo("0.9.2");
    assertThat(d.startingBundle()).isEqualTo("etcd.v0.9.2");
  }

  @Test
  void rangeAllowsTheHighestVersionOfTheChannelInsideTheRange() {
    ComputedSubscription d =
        only(everywhere("etcd", "stable", new VersionPolicy(Kind.RANGE, ">=0.9.0 <0.9.4")));
    assertThat(d.maxVersion()).isEqualTo("0.9.2");
    assertThat(d.startingBundle()).isEqualTo("etcd.v0.9.2");
  }

  @Test
  void rangeLooksOnlyAtTheSubscribedChannel() {
    ComputedSubscription d =
        only(everywhere("etcd", "alpha", new VersionPolicy(Kind.RANGE, ">=0.9.0")));
    assertThat(d.maxVersion()).isEqualTo("1.1.0");
    assertThat(d.channel()).isEqualTo("alpha");
  }

  @Test
  void rangeMatchingNothingIsKeptButBlocked() {
    ComputedSubscription d =
        only(everywhere("etcd", "stable", new VersionPolicy(Kind.RANGE, ">=5.0.0")));
    assertThat(d.maxVersion()).isNull();
    assertThat(d.blockedReason()).contains("matches range");
  }

  @Test
  void pinOfAVersionNoLongerInTheChannelIsBlocked() {
    ComputedSubscription d =
        only(everywhere("etcd", "stable", new VersionPolicy(Kind.PIN, "0.9.3")));
    assertThat(d.blockedReason()).contains("0.9.3");
  }

  @Test
  void missingPackageChannelOrCatalogBlocksInsteadOfDropping() {
    Subscription noChannel = everywhere("a", "beta", VersionPolicy.followChannel());
    assertThat(DesiredState.resolve(noChannel, CATALOGS.get("community")).blockedReason())
        .contains("beta");
    assertThat(DesiredState.resolve(noChannel, null).blockedReason()).contains("no revision");
  }

  @Test
  void placementSelectsByLabelSelectorOrByName() {
    Subscription byLabels =
        sub(
            "a",
            null,
            VersionPolicy.followChannel(),
            new Placement("env=prod,region in (eu,us),!canary", List.of()),
            null);
    Subscription byName =
        sub(
            "b",
            null,
            VersionPolicy.followChannel(),
            new Placement(null, List.of("prod-eu-1")),
            null);
    Subscription elsewhere =
        sub("c", null, VersionPolicy.followChannel(), new Placement("env=dev", List.of("x")), null);
    Subscription nowhere =
        sub("d", null, VersionPolicy.followChannel(), new Placement(null, List.of()), null);
    List<ComputedSubscription> out =
        DesiredState.forCluster(PROD_EU, List.of(elsewhere, byName, byLabels, nowhere), CATALOGS);
    assertThat(out).extracting(ComputedSubscription::name).containsExactly("a", "b");
  }

  @Test
  void canaryLabelExcludesAClusterFromANotExistsSelector() {
    DesiredState.Cluster canary =
        new DesiredState.Cluster("c1", Map.of("env", "prod", "region", "eu", "canary", "true"));
    Subscription s =
        sub(
            "a",
            null,
            VersionPolicy.followChannel(),
            new Placement("env=prod,!canary", List.of()),
            null);
    assertThat(DesiredState.forCluster(canary, List.of(s), CATALOGS)).isEmpty();
  }

  @Test
  void teamSubscriptionsOnlyPlaceOnTheirTeamsClusters() {
    Subscription team =
        sub(
            "a",
            null,
            VersionPolicy.followChannel(),
            new Placement("", List.of("prod-eu-1")),
            "payments");
    assertThat(DesiredState.forCluster(PROD_EU, List.of(team), CATALOGS)).isEmpty();
    DesiredState.Cluster ours =
        new DesiredState.Cluster("prod-eu-1", Map.of("olmstead.io/team", "payments"));
    assertThat(DesiredState.forCluster(ours, List.of(team), CATALOGS)).hasSize(1);
  }

  @Test
  void aWithheldApprovalSendsTheSubscriptionWithoutAVersionAndWithItsReasonSoNothingIsInstalled() {
    ComputedSubscription pinned =
        only(everywhere("etcd", "stable", new VersionPolicy(Kind.PIN, "0.9.4")));
    String why =
        "held by rollout ro-1: ProviderFailed: db did not reach 1.1.0 on this cluster (Failed)";
    ComputedSubscription held =
        DesiredState.withApprovals(
                List.of(pinned), Map.of("etcd", new DesiredState.Approval(null, why)))
            .get(0);
    assertThat(held.maxVersion()).isNull();
    assertThat(held.startingBundle()).isNull();
    assertThat(held.blockedReason()).isEqualTo(why);
    assertThat(held.rollback()).isNull();
    assertThat(held.generation()).isEqualTo(pinned.generation());
    // an approved version still replaces maxVersion; no approval leaves the declared one
    assertThat(
            DesiredState.withApprovals(
                    List.of(pinned), Map.of("etcd", DesiredState.Approval.of("0.9.2")))
                .get(0)
                .maxVersion())
        .isEqualTo("0.9.2");
    assertThat(DesiredState.withApprovals(List.of(pinned), Map.of()).get(0)).isEqualTo(pinned);
  }
}
