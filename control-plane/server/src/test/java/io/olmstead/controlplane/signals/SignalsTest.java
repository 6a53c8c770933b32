package io.olmstead.controlplane.signals;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy.Kind;
import io.olmstead.olmcore.fbc.Deprecation;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignalsTest {
  private static final ChannelView STABLE =
      new ChannelView(
          "stable-v2.0",
          "op.v2.0.4",
          Map.of("op.v2.0.0", v("2.0.0"), "op.v2.0.2", v("2.0.2"), "op.v2.0.4", v("2.0.4")));
  private static final List<String> CHANNELS =
      List.of("stable-v2.0", "stable-v2.1", "fast-v3.0", "candidate");
  private static final List<Signals.Installed> FLEET =
      List.of(
          new Signals.Installed("2.0.0", "op.v2.0.0", 3),
          new Signals.Installed("2.0.2", "op.v2.0.2", 2),
          new Signals.Installed("2.0.4", "op.v2.0.4", 1),
          new Signals.Installed(null, null, 4));

  private static Version v(String text) {
    return Version.tryParse(text).orElseThrow();
  }

  private static JsonObject signals(
      VersionPolicy policy, List<Deprecation.Entry> deprecations, List<String> stuck) {
    return Signals.compute(
        new Signals.Input(
            "op",
            STABLE,
            CHANNELS,
            policy,
            deprecations,
            FLEET,
            stuck,
            stuck.size(),
            Duration.ofMinutes(30)));
  }

  @Test
  void
      upgradesAvailableAreTheChannelVersionsAboveWhatThePolicyAllowsWithTheClustersBelowTheNewest() {
    record Case(VersionPolicy policy, String allowed, List<String> versions, long clusters) {}
    List<Case> cases =
        List.of(
            new Case(new VersionPolicy(Kind.PIN, "2.0.0"), "2.0.0", List.of("2.0.2", "2.0.4"), 5),
            new Case(new VersionPolicy(Kind.PIN, "2.0.2"), "2.0.2", List.of("2.0.4"), 5),
            new Case(
                new VersionPolicy(Kind.RANGE, ">=2.0.0 <2.0.3"), "2.0.2", List.of("2.0.4"), 5));
    for (Case c : cases) {
      JsonObject up = signals(c.policy(), List.of(), List.of()).getJsonObject("upgradesAvailable");
      assertThat(up.getString("allowed")).as(c.toString()).isEqualTo(c.allowed());
      assertThat(up.getJsonArray("versions").getList()).as(c.toString()).isEqualTo(c.versions());
      assertThat(up.getString("latest")).isEqualTo("2.0.4");
      assertThat(up.getLong("clusters"))
          .as("clusters below 2.0.4 (none installed: not counted)")
          .isEqualTo(c.clusters());
    }
  }

  @Test
  void noUpgradesWhenThePolicyAllowsTheHeadOrCannotBeSatisfied() {
    assertThat(
            signals(VersionPolicy.followChannel(), List.of(), List.of())
                .getValue("upgradesAvailable"))
        .isNull();
    assertThat(
            signals(new VersionPolicy(Kind.PIN, "2.0.4"), List.of(), List.of())
                .getValue("upgradesAvailable"))
        .isNull();
    assertThat(
            signals(new VersionPolicy(Kind.PIN, "9.9.9"), List.of(), List.of())
                .getValue("upgradesAvailable"))
        .as("a pin the channel lacks is blocked, not an upgrade signal")
        .isNull();
    JsonObject noChannel =
        Signals.compute(
            new Signals.Input(
                "op",
                null,
                CHANNELS,
                new VersionPolicy(Kind.PIN, "2.0.0"),
                List.of(),
                FLEET,
                List.of(),
                0,
                Duration.ofMinutes(1)));
    assertThat(noChannel.getValue("upgradesAvailable")).isNull();
    assertThat(noChannel.getValue("newerChannel")).isNull();
  }

  @Test
  void deprecationsOfThePackageTheChannelAndInstalledBundlesOnlyAreReported() {
    List<Deprecation.Entry> entries =
        List.of(
            new Deprecation.Entry("olm.package", null, "op is end of life"),
            new Deprecation.Entry("olm.channel", "stable-v2.0", "move to stable-v2.1"),
            new Deprecation.Entry("olm.channel", "candidate", "not ours"),
            new Deprecation.Entry("olm.bundle", "op.v2.0.0", "CVE in 2.0.0"),
            new Deprecation.Entry("olm.bundle", "op.v1.0.0", "nobody runs it"));
    JsonArray out =
        signals(new VersionPolicy(Kind.PIN, "2.0.4"), entries, List.of())
            .getJsonArray("deprecations");
    assertThat(out)
        .containsExactly(
            new JsonObject()
                .put("scope", "package")
                .put("name", "op")
                .put("message", "op is end of life")
                .put("clusters", 10L),
            new JsonObject()
                .put("scope", "channel")
                .put("name", "stable-v2.0")
                .put("message", "move to stable-v2.1")
                .put("clusters", 10L),
            new JsonObject()
                .put("scope", "bundle")
                .put("name", "op.v2.0.0")
                .put("message", "CVE in 2.0.0")
                .put("clusters", 3L));
  }

  @Test
  void aNewerChannelOfTheSameFamilyIsNamed() {
    assertThat(
            signals(VersionPolicy.followChannel(), List.of(), List.of()).getString("newerChannel"))
        .isEqualTo("stable-v2.1");
  }

  @Test
  void stuckClustersAreCountedAndNamedUpToTheLimit() {
    List<String> many =
        java.util.stream.IntStream.range(0, Signals.MAX_NAMES + 5).mapToObj(i -> "c-" + i).toList();
    JsonObject stuck =
        signals(VersionPolicy.followChannel(), List.of(), many).getJsonObject("stuckClusters");
    assertThat(stuck.getLong("count")).isEqualTo(Signals.MAX_NAMES + 5L);
    assertThat(stuck.getJsonArray("clusters")).hasSize(Signals.MAX_NAMES);
    assertThat(stuck.getString("after")).isEqualTo("PT30M");
  }
}
