package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.apispec.protocol.Condition;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.GatewaySettings;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gateway's pure rules: rate limit, status validation, enrollment request validation, settings.
 */
class GatewayRulesTest {
  @Test
  void tokenBucketAllowsTheBurstThenTheRate() {
    TokenBucket bucket = new TokenBucket(10, 5, 0);
    for (int i = 0; i < 5; i++) {
      assertThat(bucket.tryTake(0)).isTrue();
    }
    assertThat(bucket.tryTake(0)).isFalse();
    assertThat(bucket.tryTake(100_000_000L)).isTrue(); // 0.1 s later: one more token
    assertThat(bucket.tryTake(100_000_000L)).isFalse();
  }

  @Test
  void statusReportsAreBoundedAndNamed() {
    SubscriptionStatus ok =
        new SubscriptionStatus("etcd", null, null, null, "Succeeded", null, null, null, null);
    assertThat(StatusValidation.invalid(new Status(1, null, null, 1, true, List.of(ok)))).isNull();
    assertThat(StatusValidation.invalid(new Status(1, null, null, 0, true, List.of(ok))))
        .contains("seq");
    assertThat(StatusValidation.invalid(new Status(1, null, null, 1, true, null)))
        .contains("required");
    assertThat(StatusValidation.invalid(new Status(1, null, null, 1, true, List.of(ok, ok))))
        .contains("twice");
    assertThat(
            StatusValidation.invalid(
                new Status(
                    1,
                    null,
                    null,
                    1,
                    false,
                    List.of(
                        new SubscriptionStatus(
                            "Bad Name", null, null, null, "Succeeded", null, null, null, null)))))
        .contains("DNS-1123");
    assertThat(
            StatusValidation.invalid(
                new Status(
                    1,
                    null,
                    null,
                    1,
                    false,
                    List.of(
                        new SubscriptionStatus(
                            "etcd",
                            null,
                            null,
                            null,
                            "Failed",
                            null,
                            "x".repeat(5000),
                            null,
                            null)))))
        .contains("4096");
    assertThat(
            StatusValidation.invalid(
                new Status(
                    1,
                    null,
                    null,
                    1,
                    false,
                    Collections.nCopies(StatusValidation.MAX_SUBSCRIPTIONS + 1, ok))))
        .contains("more than");
    // PostgreSQL refuses NUL in text and jsonb; one such row would fail the batch of every cluster
    // written with it
    assertThat(
            StatusValidation.invalid(
                new Status(
                    1,
                    null,
                    null,
                    1,
                    false,
                    List.of(
                        new SubscriptionStatus(
                            "etcd",
                            null,
                            null,
                            null,
                            "Failed",
                            null,
                            "bad\u0000message",
                            null,
                            null)))))
        .contains("NUL");
    assertThat(
            StatusValidation.invalid(
                new Status(
                    1,
                    null,
                    null,
                    1,
                    false,
                    List.of(
                        new SubscriptionStatus(
                            "etcd",
                            null,
                            null,
                            null,
                            "Failed",
                            null,
                            null,
                            List.of(new Condition("Upgradeable", "False", "x\u0000", null, null)),
                            null)))))
        .contains("NUL");
  }

  @Test
  void enrollmentRequestsFollowTheSpec() {
    JsonObject good =
        new JsonObject()
            .put("clusterName", "prod-eu-1")
            .put("facts", new JsonObject())
            .put("labels", new JsonObject().put("olmstead.io/team", "payments"));
    assertThat(EnrollHandler.invalid(good)).isNull();
    assertThat(EnrollHandler.invalid(null)).isNotNull();
    assertThat(EnrollHandler.invalid(good.copy().put("clusterName", "Prod"))).contains("DNS-1123");
    assertThat(EnrollHandler.invalid(good.copy().put("x", 1))).contains("unknown field");
    assertThat(EnrollHandler.invalid(good.copy().put("labels", new JsonObject().put("k", 3))))
        .contains("label");
    assertThat(
            EnrollHandler.invalid(good.copy().put("labels", new JsonObject().put("bad key!", "v"))))
        .contains("label");
    assertThat(
            EnrollHandler.invalid(
                good.copy().remove("facts") == null ? good : good.copy().put("facts", "x")))
        .contains("facts");
  }

  @Test
  void settingsRejectAWindowShorterThanTheHeartbeat() {
    assertThat(GatewaySettings.defaults().limits().maxMessageBytes()).isEqualTo(1024 * 1024);
    assertThatThrownBy(
            () ->
                GatewaySettings.fromEnvironment(
                    Map.of(
                        GatewaySettings.HEARTBEAT_SECONDS,
                        "30",
                        GatewaySettings.DISCONNECT_SECONDS,
                        "20")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(GatewaySettings.DISCONNECT_SECONDS);
  }

  @Test
  void settingsRejectAnIdleTimeoutAgentsCouldNotOutliveAndAPerSourceLimitAboveTheTotal() {
    GatewaySettings defaults = GatewaySettings.defaults();
    assertThat(defaults.helloTimeoutSeconds()).isEqualTo(10);
    assertThat(defaults.handshakesPerSource()).isEqualTo(defaults.maxHandshakes() / 2);
    assertThat(
            GatewaySettings.fromEnvironment(Map.of(GatewaySettings.MAX_HANDSHAKES, "10"))
                .handshakesPerSource())
        .isEqualTo(5);
    assertThatThrownBy(
            () ->
                GatewaySettings.fromEnvironment(Map.of(GatewaySettings.IDLE_TIMEOUT_SECONDS, "15")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(GatewaySettings.IDLE_TIMEOUT_SECONDS);
    assertThatThrownBy(
            () ->
                GatewaySettings.fromEnvironment(
                    Map.of(
                        GatewaySettings.MAX_HANDSHAKES,
                        "10",
                        GatewaySettings.HANDSHAKES_PER_SOURCE,
                        "11")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(GatewaySettings.HANDSHAKES_PER_SOURCE);
  }
}
