package io.olmstead.agent.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An agent whose messages are refused backs off further at each refusal instead of reconnecting at
 * once for ever.
 */
class ReconnectPolicyTest {
  private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(30));
  private final ReconnectPolicy policy = new ReconnectPolicy(backoff);

  @Test
  void refusalsOfOurOwnMessagesKeepTheBackoffGrowingAcrossWelcomes() {
    for (int i = 0; i < 12; i++) {
      policy.welcomed(0);
      policy.afterClose(4002);
    }
    assertThat(policy.refusals()).isEqualTo(12);
    assertThat(backoff.attempt()).isEqualTo(12);
    // after 12 refusals the delay may reach the 30 s maximum; never the 100 ms minimum again at a
    // welcome
    policy.welcomed(0);
    assertThat(backoff.attempt()).isEqualTo(12);
  }

  @Test
  void aConnectionAcceptedForAMinuteForgetsTheRefusals() {
    policy.welcomed(0);
    policy.afterClose(4004);
    policy.welcomed(0);
    policy.stillConnected(ReconnectPolicy.REFUSALS_FORGOTTEN_NANOS + 1);
    assertThat(policy.refusals()).isZero();
    policy.afterClose(1006);
    policy.welcomed(ReconnectPolicy.REFUSALS_FORGOTTEN_NANOS + 2);
    assertThat(backoff.attempt()).isZero();
  }

  @Test
  void ordinaryClosesStartOverAtTheNextWelcomeAndHopelessOnesWaitTheMaximum() {
    policy.afterClose(1001);
    policy.afterClose(null);
    policy.welcomed(0);
    assertThat(backoff.attempt()).isZero();
    assertThat(policy.afterClose(4010)).isEqualTo(30_000);
    assertThat(ReconnectPolicy.refusedOurMessage(4011)).isTrue();
    assertThat(ReconnectPolicy.refusedOurMessage(4008)).isFalse();
  }

  @Test
  void aRevokedCredentialIsDialedAgainSoonAFewTimesThenAfterTheMaximumUntilAWelcome() {
    for (int i = 0; i < ReconnectPolicy.QUICK_AFTER_REVOCATION; i++) {
      assertThat(policy.afterClose(4007)).as("quick redial %d", i).isBetween(100L, 200L);
    }
    assertThat(policy.afterClose(4007)).isEqualTo(30_000);
    policy.welcomed(0);
    assertThat(policy.afterClose(4007)).isBetween(100L, 200L);
    assertThat(backoff.attempt()).as("quick redials do not grow the backoff").isZero();
  }
}
