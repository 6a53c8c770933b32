package io.olmstead.controlplane.signals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChannelNamesTest {
  @Test
  void theNewestChannelOfTheSameFamilyIsNewer() {
    record Case(String current, List<String> channels, String newer) {}
    List<Case> cases =
        List.of(
            new Case("stable-v2.0", List.of("stable-v2.0", "stable-v2.1"), "stable-v2.1"),
            new Case(
                "stable-v2.0",
                List.of("stable-v2.1", "stable-v2.10", "stable-v2.9"),
                "stable-v2.10"),
            new Case("stable-v2.0", List.of("stable-v3"), "stable-v3"),
            new Case("stable-v2", List.of("stable-v2.0"), null),
            new Case("stable-v2.1", List.of("stable-v2.0", "stable-v1.9"), null),
            new Case("stable-v2.0", List.of("fast-v2.1", "stable", "stable-v2.1-eus"), null),
            new Case(
                "release-4.14-eus",
                List.of("release-4.16-eus", "release-4.15"),
                "release-4.16-eus"),
            new Case("v1alpha2", List.of("v1alpha3", "v1beta1"), "v1alpha3"),
            new Case("stable", List.of("stable-v2.0", "stable2"), null),
            new Case(null, List.of("stable-v2.0"), null));
    for (Case c : cases) {
      assertThat(ChannelNames.newest(c.current(), c.channels()).orElse(null))
          .as(c.toString())
          .isEqualTo(c.newer());
    }
  }
}
