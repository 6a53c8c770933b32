package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InFlightTest {
  @Test
  void admitsUpToItsLimitRefusesTheNextWithoutCountingItAndAdmitsAgainOnceOneLeft() {
    InFlight previews = new InFlight(RolloutPreviewRoutes.MAX_PREVIEWS_IN_FLIGHT);
    for (int i = 0; i < RolloutPreviewRoutes.MAX_PREVIEWS_IN_FLIGHT; i++) {
      assertThat(previews.tryEnter()).as("preview %d", i + 1).isTrue();
    }
    assertThat(previews.tryEnter()).isFalse();
    assertThat(previews.tryEnter()).as("a refusal takes no slot").isFalse();
    previews.leave();
    assertThat(previews.tryEnter()).isTrue();
    assertThat(previews.tryEnter()).isFalse();
  }
}
