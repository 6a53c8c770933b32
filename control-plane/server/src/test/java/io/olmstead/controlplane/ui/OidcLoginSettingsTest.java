package io.olmstead.controlplane.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.OidcSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SSO settings: client id (default the audience), scopes and retry interval, typed and checked
 * at start.
 */
class OidcLoginSettingsTest {
  private static Map<String, String> env(String... extra) {
    Map<String, String> env =
        new HashMap<>(
            Map.of(
                OidcSettings.ISSUER,
                "https://idp.example",
                OidcSettings.AUDIENCE,
                "olmstead",
                OidcSettings.ROLE_MAP,
                "platform=admin"));
    for (int i = 0; i < extra.length; i += 2) {
      env.put(extra[i], extra[i + 1]);
    }
    return env;
  }

  @Test
  void theClientIdDefaultsToTheAudienceAndThenTheDashboardKeepsTheIdToken() {
    OidcSettings s = OidcSettings.fromEnvironment(env());
    assertThat(s.clientId()).isEqualTo("olmstead");
    assertThat(s.scopes()).isEqualTo("openid profile email");
    assertThat(s.dashboardToken()).isEqualTo("id_token");
  }

  @Test
  void anotherClientIdMeansTheAccessTokenCarriesTheAudience() {
    OidcSettings s =
        OidcSettings.fromEnvironment(
            env(OidcSettings.CLIENT_ID, "dashboard", OidcSettings.SCOPES, "openid  groups"));
    assertThat(s.dashboardToken()).isEqualTo("access_token");
    assertThat(s.scopes()).isEqualTo("openid groups");
  }

  @Test
  void aMalformedClientIdOrScopesWithoutOpenidNameTheSetting() {
    assertThatThrownBy(() -> OidcSettings.fromEnvironment(env(OidcSettings.CLIENT_ID, "two words")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(OidcSettings.CLIENT_ID);
    assertThatThrownBy(
            () -> OidcSettings.fromEnvironment(env(OidcSettings.SCOPES, "profile email")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(OidcSettings.SCOPES);
    assertThatThrownBy(() -> OidcSettings.fromEnvironment(env(OidcSettings.SCOPES, "openid \"x\"")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(OidcSettings.SCOPES);
  }

  @Test
  void theRetryIntervalDefaultsTo15SecondsAndAnythingButWholeSecondsFrom1To3600NamesTheSetting() {
    assertThat(OidcSettings.fromEnvironment(env()).retry()).isEqualTo(Duration.ofSeconds(15));
    assertThat(OidcSettings.fromEnvironment(env(OidcSettings.RETRY_SECONDS, "60")).retry())
        .isEqualTo(Duration.ofMinutes(1));
    for (String bad : new String[] {"0", "3601", "10s", "-5"}) {
      assertThatThrownBy(() -> OidcSettings.fromEnvironment(env(OidcSettings.RETRY_SECONDS, bad)))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining(OidcSettings.RETRY_SECONDS);
    }
  }
}
