package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.agentgateway.HandshakeLimits.Refusal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The handshake limits: per source before the credential check, per credential and in all after it.
 */
class HandshakeLimitsTest {
  @Test
  void aBogusCredentialNeverHoldsAHandshakeSlot() {
    HandshakeLimits limits = new HandshakeLimits(2, 2, 2);
    HandshakeLimits.Permit bogus = limits.enter("10.0.0.9");
    assertThat(bogus.refusal()).isNull();
    assertThat(limits.inProgress()).isZero();
    bogus.release();
    HandshakeLimits.Permit real = limits.enter("10.0.0.1");
    assertThat(real.authenticated("cred-a")).isNull();
    assertThat(limits.inProgress()).isEqualTo(1);
    real.release();
    real.release();
    assertThat(limits.inProgress()).isZero();
  }

  @Test
  void oneCredentialHoldsAtMostItsShareAndTheSlotsComeBackOnRelease() {
    HandshakeLimits limits = new HandshakeLimits(200, 100, 2);
    List<HandshakeLimits.Permit> held = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      HandshakeLimits.Permit p = limits.enter("10.0.0." + i);
      assertThat(p.authenticated("stolen")).isNull();
      held.add(p);
    }
    assertThat(limits.enter("10.0.0.7").authenticated("stolen")).isEqualTo(Refusal.PER_CREDENTIAL);
    assertThat(limits.enter("10.0.0.8").authenticated("other")).isNull();
    held.get(0).release();
    assertThat(limits.enter("10.0.0.7").authenticated("stolen")).isNull();
  }

  @Test
  void oneSourceCannotTakeEverySlotNorQueueMoreThanAFewLookups() {
    HandshakeLimits limits = new HandshakeLimits(10, 5, 2);
    List<HandshakeLimits.Permit> lookingUp = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      lookingUp.add(limits.enter("10.0.0.9"));
    }
    assertThat(lookingUp).allSatisfy(p -> assertThat(p.refusal()).isNull());
    assertThat(limits.enter("10.0.0.9").refusal()).isEqualTo(Refusal.PER_SOURCE);
    assertThat(limits.enter("10.0.0.1").refusal()).isNull();
    HandshakeLimits wide = new HandshakeLimits(200, 100, 2);
    for (int i = 0; i < HandshakeLimits.LOOKUPS_PER_SOURCE; i++) {
      assertThat(wide.enter("10.0.0.9").refusal()).isNull();
    }
    assertThat(wide.enter("10.0.0.9").refusal()).isEqualTo(Refusal.PER_SOURCE);
  }

  @Test
  void whenEverySlotIsTakenTheAnswerIsBusy() {
    HandshakeLimits limits = new HandshakeLimits(1, 1, 1);
    assertThat(limits.enter("a").authenticated("x")).isNull();
    assertThat(limits.enter("b").authenticated("y")).isEqualTo(Refusal.BUSY);
  }
}
