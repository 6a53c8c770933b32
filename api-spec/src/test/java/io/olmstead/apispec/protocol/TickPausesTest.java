package io.olmstead.apispec.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TickPausesTest {
  private static final long PERIOD = 5;
  private static final long WINDOW = 15;

  private final TickPauses pauses = new TickPauses(0);

  @Test
  void aTickOnTimeIsNotLateAndSilenceIsTheTimeSinceLastHeard() {
    assertThat(pauses.tick(5, PERIOD, WINDOW)).isZero();
    assertThat(pauses.tick(10, PERIOD, WINDOW)).isZero();

    assertThat(pauses.silence(10, 0)).isEqualTo(10);
  }

  @Test
  void aTickMoreThanTwoPeriodsAfterThePreviousIsLateByWhatExceedsOnePeriod() {
    pauses.tick(5, PERIOD, WINDOW);

    assertThat(pauses.tick(15, PERIOD, WINDOW)).as("two periods: busy, not paused").isZero();
    assertThat(pauses.tick(26, PERIOD, WINDOW)).isEqualTo(6);
  }

  @Test
  void aPauseIsLeftOutOfTheSilenceOfPeersHeardBeforeItOnly() {
    pauses.tick(5, PERIOD, WINDOW);
    pauses.tick(65, PERIOD, WINDOW); // paused 55 beyond the period

    assertThat(pauses.silence(65, 4)).as("heard before the pause").isEqualTo(6);
    assertThat(pauses.silence(70, 66)).as("heard after it").isEqualTo(4);
  }

  @Test
  void aPeerStillSilentAfterThePauseExceedsTheWindowOnLaterTimelyTicks() {
    pauses.tick(5, PERIOD, WINDOW);
    pauses.tick(65, PERIOD, WINDOW);
    long now = 65;
    for (int i = 0; i < 2; i++) {
      now += PERIOD;
      assertThat(pauses.tick(now, PERIOD, WINDOW)).isZero();
    }
    assertThat(pauses.silence(now, 4)).isEqualTo(16).isGreaterThan(WINDOW);
  }

  @Test
  void aPauseIsForgottenOnceEveryPeerHeardBeforeItWasJudgedPastIt() {
    pauses.tick(5, PERIOD, WINDOW);
    pauses.tick(65, PERIOD, WINDOW);
    pauses.tick(200, PERIOD, WINDOW); // late again: both pauses kept until the window passes
    for (long now = 205; now <= 400; now += PERIOD) {
      pauses.tick(now, PERIOD, WINDOW);
    }

    assertThat(pauses.silence(400, 4)).as("nothing excused any more").isEqualTo(396);
  }
}
