package io.olmstead.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignalSettingsTest {
  @Test
  void defaultsAndShortAndIsoDurationsAreRead() {
    assertThat(SignalSettings.fromEnvironment(Map.of()))
        .isEqualTo(
            new SignalSettings(
                Duration.ofMinutes(30), Duration.ofMinutes(5), Duration.ofSeconds(30)));
    SignalSettings s =
        SignalSettings.fromEnvironment(
            Map.of(
                SignalSettings.STUCK_AFTER,
                "2h",
                SignalSettings.DISCONNECTED_AFTER,
                "PT90S",
                SignalSettings.INTERVAL,
                "500ms"));
    assertThat(s)
        .isEqualTo(
            new SignalSettings(
                Duration.ofHours(2), Duration.ofSeconds(90), Duration.ofMillis(500)));
  }

  @Test
  void badValuesAreRefusedAtStartNamingTheSetting() {
    for (String bad : new String[] {"30", "thirty minutes", "-5m", "0s", "50ms", "31d", "P"}) {
      assertThatThrownBy(
              () ->
                  ControlPlaneConfig.fromEnvironment(
                      Map.of(SignalSettings.STUCK_AFTER, bad), "127.0.0.1"))
          .as(bad)
          .isInstanceOf(ConfigException.class)
          .satisfies(
              e ->
                  assertThat(((ConfigException) e).setting())
                      .isEqualTo(SignalSettings.STUCK_AFTER));
    }
    assertThat(ControlPlaneConfig.ENVIRONMENT).containsAll(SignalSettings.ENVIRONMENT);
    assertThat(
            ControlPlaneConfig.fromEnvironment(
                    Map.of(SignalSettings.DISCONNECTED_AFTER, "10m"), "127.0.0.1")
                .webhooks()
                .signals()
                .disconnectedAfter())
        .isEqualTo(Duration.ofMinutes(10));
  }
}
