package io.olmstead.apispec.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Decoding what a misbehaving agent may send yields a close reason, never an unchecked exception.
 */
class ProtocolCodecTest {
  @Test
  void garbageIsMalformed() {
    assertReason("{not json", CloseReason.MALFORMED_MESSAGE);
    assertReason("[1,2]", CloseReason.MALFORMED_MESSAGE);
    assertReason("{\"protocol\":1}", CloseReason.MALFORMED_MESSAGE);
    assertReason("{\"type\":\"status\"}", CloseReason.MALFORMED_MESSAGE);
    assertReason(
        "{\"type\":\"status\",\"protocol\":1,\"seq\":\"x\"}", CloseReason.MALFORMED_MESSAGE);
    assertReason("[".repeat(5000), CloseReason.MALFORMED_MESSAGE);
  }

  @Test
  void unknownTypeHasItsOwnReason() {
    assertReason("{\"type\":\"launch-missiles\",\"protocol\":1}", CloseReason.UNKNOWN_TYPE);
  }

  @Test
  void unknownFieldsAreIgnoredForForwardCompatibility() throws ProtocolException {
    AgentMessage message =
        ProtocolCodec.decode("{\"type\":\"ack\",\"protocol\":2,\"generation\":4,\"future\":true}");
    assertThat(message).isEqualTo(new Ack(2, null, 4));
  }

  @Test
  void negotiationPicksTheHighestCommonVersion() {
    assertThat(ProtocolVersions.negotiate(List.of(1, 7))).hasValue(1);
    assertThat(ProtocolVersions.negotiate(List.of(9))).isEmpty();
    assertThat(new Hello(3, null, "x", null, null, null).acceptedProtocols()).containsExactly(3);
  }

  private static void assertReason(String text, CloseReason reason) {
    assertThatThrownBy(() -> ProtocolCodec.decode(text))
        .isInstanceOfSatisfying(
            ProtocolException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }
}
