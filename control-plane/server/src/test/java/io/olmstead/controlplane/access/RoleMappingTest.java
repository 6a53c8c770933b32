package io.olmstead.controlplane.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.OidcSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Groups to one role and its teams, never more than a matched entry grants; the setting's errors
 * name it.
 */
class RoleMappingTest {
  private static final List<RoleMapping.Entry> MAP =
      OidcSettings.parseRoleMap(
          "platform=admin; viewers=viewer; payments-ops=operator:payments; billing-admins=admin:billing,ledger");

  @Test
  void matchedEntriesGiveTheLowestRoleAndTeamsOnlyWhenAnyIsScoped() {
    assertThat(RoleMapping.grant(MAP, List.of("platform")))
        .hasValue(new RoleMapping.Grant(Role.ADMIN, List.of()));
    assertThat(RoleMapping.grant(MAP, List.of("payments-ops", "billing-admins")))
        .hasValue(new RoleMapping.Grant(Role.OPERATOR, List.of("payments", "billing", "ledger")));
    // a fleet-wide viewer who is also a payments operator is not a fleet-wide operator
    assertThat(RoleMapping.grant(MAP, List.of("viewers", "payments-ops")))
        .hasValue(new RoleMapping.Grant(Role.VIEWER, List.of("payments")));
    assertThat(RoleMapping.grant(MAP, List.of("strangers"))).isEmpty();
  }

  @Test
  void badSettingsNameTheSetting() {
    for (String bad : new String[] {"platform", "platform=root", "x=admin:Not_A_Team", ";"}) {
      assertThatThrownBy(() -> OidcSettings.parseRoleMap(bad))
          .as(bad)
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining(OidcSettings.ROLE_MAP);
    }
    assertThatThrownBy(
            () -> OidcSettings.fromEnvironment(Map.of(OidcSettings.ISSUER, "https://id.example")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(OidcSettings.AUDIENCE);
    assertThatThrownBy(
            () ->
                OidcSettings.fromEnvironment(
                    Map.of(
                        OidcSettings.ISSUER,
                        "id.example",
                        OidcSettings.AUDIENCE,
                        "a",
                        OidcSettings.ROLE_MAP,
                        "g=admin")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(OidcSettings.ISSUER);
    assertThat(OidcSettings.fromEnvironment(Map.of()).enabled()).isFalse();
  }
}
