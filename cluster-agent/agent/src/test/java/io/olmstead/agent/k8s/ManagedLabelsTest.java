package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ManagedLabelsTest {
  private static final String VALID = "([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?";

  @Test
  void shortValidValuesAreKept() {
    assertThat(ManagedLabels.value("etcdoperator.v0.9.2")).isEqualTo("etcdoperator.v0.9.2");
  }

  @Test
  void longOrInvalidValuesBecomeValidAndStayDistinct() {
    String a = ManagedLabels.value("x".repeat(80) + "-a");
    String b = ManagedLabels.value("x".repeat(80) + "-b");
    assertThat(a).hasSizeLessThanOrEqualTo(63).matches(VALID);
    assertThat(b).hasSizeLessThanOrEqualTo(63).matches(VALID);
    assertThat(a).isNotEqualTo(b);
    assertThat(ManagedLabels.value("has space/and:colon")).matches(VALID);
  }

  @Test
  void everyObjectGetsTheOwnershipLabels() {
    assertThat(ManagedLabels.of("sub", "bundle.v1", "ns"))
        .containsEntry(ManagedLabels.MANAGED_BY, "olmstead")
        .containsEntry(ManagedLabels.SUBSCRIPTION, "sub")
        .containsEntry(ManagedLabels.BUNDLE, "bundle.v1")
        .containsEntry(ManagedLabels.NAMESPACE, "ns");
  }
}
