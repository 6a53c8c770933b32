package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SubscriptionNamesTest {
  /** The control plane's check (EnrollHandler.DNS_LABEL) on every reported subscription name. */
  private static final String DNS_LABEL = "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$";

  @Test
  void impliedNamesThatAreAlreadyLabelsAreKept() {
    assertThat(SubscriptionNames.implied("rabbitmq-cluster-operator", "stable", "community"))
        .isEqualTo("rabbitmq-cluster-operator-stable-community");
  }

  @Test
  void channelsWithDotsUnderscoresOrCapitalsGiveValidLabels() {
    for (String channel :
        List.of("3.x", "2.4.x", "Stable", "release_1.2", "tech-preview-v0.1", "alpha/beta", "é")) {
      String name = SubscriptionNames.implied("cert-manager", channel, "community");
      assertThat(name).as(channel).matches(DNS_LABEL).startsWith("cert-manager-");
    }
    assertThat(SubscriptionNames.implied("strimzi-kafka-operator", "0.45.x", "community"))
        .startsWith("strimzi-kafka-operator-0-45-x-community-");
  }

  @Test
  void longNamesAreShortenedTo63Characters() {
    String name =
        SubscriptionNames.implied(
            "a-very-long-package-name-for-an-operator-that-does-many-things",
            "stable-v1",
            "a-catalog-with-a-long-name-too");
    assertThat(name)
        .hasSizeLessThanOrEqualTo(63)
        .matches(DNS_LABEL)
        .startsWith("a-very-long-package-name");
  }

  @Test
  void namesAreDeterministicAndDistinctInputsStayDistinct() {
    assertThat(SubscriptionNames.implied("p", "3.x", "c"))
        .isEqualTo(SubscriptionNames.implied("p", "3.x", "c"));
    Set<String> names = new HashSet<>();
    for (String channel : List.of("3.x", "3-x", "3_x", "3.X", "3..x")) {
      names.add(SubscriptionNames.implied("p", channel, "c"));
    }
    assertThat(names).hasSize(5);
    String prefix = "x".repeat(70);
    assertThat(SubscriptionNames.dnsLabel(prefix + "-a"))
        .isNotEqualTo(SubscriptionNames.dnsLabel(prefix + "-b"));
  }

  @Test
  void textWithNothingUsableStillGivesALabel() {
    assertThat(SubscriptionNames.dnsLabel("...")).matches(DNS_LABEL);
    assertThat(SubscriptionNames.dnsLabel("")).matches(DNS_LABEL);
    assertThat(SubscriptionNames.dnsLabel(null)).matches(DNS_LABEL);
    assertThat(SubscriptionNames.dnsLabel("-leading-and-trailing-"))
        .matches(DNS_LABEL)
        .startsWith("leading-and-trailing-");
  }
}
