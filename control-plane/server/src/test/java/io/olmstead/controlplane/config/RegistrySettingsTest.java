package io.olmstead.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistrySettingsTest {

  static RegistrySettings read(Map<String, String> env) {
    return RegistrySettings.fromEnvironment(env, List.of());
  }

  @Test
  void theDeadlineDefaultsToTwoMinutesAndIsValidatedAtStart() {
    assertThat(read(Map.of()).timeout()).isEqualTo(Duration.ofSeconds(120));
    assertThat(read(Map.of(RegistrySettings.TIMEOUT_SECONDS, "5")).timeout())
        .isEqualTo(Duration.ofSeconds(5));
    for (String bad : new String[] {"0", "-1", "3601", "soon"}) {
      assertThatThrownBy(() -> read(Map.of(RegistrySettings.TIMEOUT_SECONDS, bad)))
          .as(bad)
          .isInstanceOfSatisfying(
              ConfigException.class,
              e -> assertThat(e.setting()).isEqualTo(RegistrySettings.TIMEOUT_SECONDS));
    }
  }

  @Test
  void localRegistriesAreListedByHostOrHostAndPort() {
    RegistrySettings s =
        read(
            Map.of(
                RegistrySettings.ALLOW_LOCAL,
                "127.0.0.1:5000, registry.localhost",
                RegistrySettings.INSECURE,
                "127.0.0.1:6000"));
    assertThat(s.localAllowed())
        .containsExactlyInAnyOrder("127.0.0.1:5000", "registry.localhost", "127.0.0.1:6000");
    assertThat(s.insecure("127.0.0.1:5000")).isFalse();
    assertThatThrownBy(() -> read(Map.of(RegistrySettings.ALLOW_LOCAL, "http://127.0.0.1:5000")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.setting()).isEqualTo(RegistrySettings.ALLOW_LOCAL));
    assertThat(RegistrySettings.ENVIRONMENT)
        .contains(RegistrySettings.ALLOW_LOCAL, RegistrySettings.TIMEOUT_SECONDS);
  }

  @Test
  void theIdleTimeoutDefaultsToThirtySecondsWithinTheDeadline() {
    assertThat(read(Map.of()).readTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(read(Map.of(RegistrySettings.TIMEOUT_SECONDS, "5")).readTimeout())
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(read(Map.of(RegistrySettings.READ_TIMEOUT_SECONDS, "7")).readTimeout())
        .isEqualTo(Duration.ofSeconds(7));
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        RegistrySettings.TIMEOUT_SECONDS,
                        "10",
                        RegistrySettings.READ_TIMEOUT_SECONDS,
                        "11")))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> assertThat(e.setting()).isEqualTo(RegistrySettings.READ_TIMEOUT_SECONDS))
        .hasMessageContaining(RegistrySettings.TIMEOUT_SECONDS);
    assertThat(RegistrySettings.ENVIRONMENT).contains(RegistrySettings.READ_TIMEOUT_SECONDS);
  }

  @Test
  void theSweepDefaultsToFiveSecondsAndIsValidatedAtStart() {
    assertThat(read(Map.of()).sweep()).isEqualTo(Duration.ofSeconds(5));
    assertThat(read(Map.of(RegistrySettings.SWEEP_SECONDS, "1")).sweep())
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(
            read(Map.of(RegistrySettings.SWEEP_SECONDS, "2"))
                .withTimeout(Duration.ofSeconds(9))
                .sweep())
        .isEqualTo(Duration.ofSeconds(2));
    for (String bad : new String[] {"0", "-1", "301", "soon"}) {
      assertThatThrownBy(() -> read(Map.of(RegistrySettings.SWEEP_SECONDS, bad)))
          .as(bad)
          .isInstanceOfSatisfying(
              ConfigException.class,
              e -> assertThat(e.setting()).isEqualTo(RegistrySettings.SWEEP_SECONDS));
    }
    assertThat(RegistrySettings.ENVIRONMENT).contains(RegistrySettings.SWEEP_SECONDS);
  }
}
