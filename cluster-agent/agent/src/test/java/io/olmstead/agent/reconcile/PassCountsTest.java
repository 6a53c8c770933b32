package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PassCountsTest {
  private final PassCounts counts = new PassCounts();

  @Test
  void countsStartedAndFinishedPassesPerNamespace() {
    counts.started("a");
    counts.finished("a");
    counts.started("a");
    counts.started("b");
    assertThat(counts.of("a")).isEqualTo(new AgentReconciler.Passes(2, 1));
    assertThat(counts.of("b")).isEqualTo(new AgentReconciler.Passes(1, 0));
    assertThat(counts.of("never")).isEqualTo(new AgentReconciler.Passes(0, 0));
  }

  @Test
  void forgetsANamespaceNoLongerInUseOnlyOnceNoPassOverItIsUnderWay() {
    counts.started("gone");
    counts.finished("gone");
    counts.started("leaving");
    counts.started("kept");
    counts.finished("kept");
    counts.retain(Set.of("kept"));
    assertThat(counts.of("gone")).isEqualTo(new AgentReconciler.Passes(0, 0));
    assertThat(counts.of("leaving")).isEqualTo(new AgentReconciler.Passes(1, 0));
    assertThat(counts.of("kept")).isEqualTo(new AgentReconciler.Passes(1, 1));
  }
}
