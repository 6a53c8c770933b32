package io.olmstead.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.access.Role;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PrincipalTest {
  private static final Principal UNSCOPED =
      new Principal(UUID.randomUUID(), "ops", Role.OPERATOR, List.of());
  private static final Principal TEAM_A =
      new Principal(UUID.randomUUID(), "a", Role.ADMIN, List.of("team-a"));

  @Test
  void rolesIncludeTheOnesBelowThem() {
    assertThat(Role.ADMIN.includes(Role.OPERATOR)).isTrue();
    assertThat(Role.OPERATOR.includes(Role.VIEWER)).isTrue();
    assertThat(Role.VIEWER.includes(Role.OPERATOR)).isFalse();
    assertThat(Role.fromWire("operator")).contains(Role.OPERATOR);
    assertThat(Role.fromWire("root")).isEmpty();
  }

  @Test
  void anUnscopedCallerReachesEveryTeam() {
    assertThat(UNSCOPED.mayAccessLabels(Map.of())).isTrue();
    assertThat(UNSCOPED.mayAccessTeam("team-b")).isTrue();
    assertThat(UNSCOPED.coversTeams(List.of())).isTrue();
  }

  @Test
  void aScopedCallerReachesOnlyItsTeams() {
    assertThat(TEAM_A.mayAccessLabels(Map.of(Principal.TEAM_LABEL, "team-a"))).isTrue();
    assertThat(TEAM_A.mayAccessLabels(Map.of(Principal.TEAM_LABEL, "team-b"))).isFalse();
    assertThat(TEAM_A.mayAccessLabels(Map.of())).isFalse();
    assertThat(TEAM_A.coversTeams(List.of("team-a"))).isTrue();
    assertThat(TEAM_A.coversTeams(List.of())).as("cannot mint unscoped").isFalse();
    assertThat(TEAM_A.actor()).isEqualTo("token:a");
  }

  @Test
  void bearerHeadersAreParsedStrictly() {
    assertThat(TokenAuthenticator.bearer("Bearer abc")).contains("abc");
    assertThat(TokenAuthenticator.bearer("bearer abc")).contains("abc");
    assertThat(TokenAuthenticator.bearer("Basic abc")).isEmpty();
    assertThat(TokenAuthenticator.bearer("Bearer ")).isEmpty();
    assertThat(TokenAuthenticator.bearer("Bearer a b")).isEmpty();
    assertThat(TokenAuthenticator.bearer("Bearer " + "x".repeat(8192))).contains("x".repeat(8192));
    assertThat(TokenAuthenticator.bearer("Bearer " + "x".repeat(8193)))
        .as("JWTs fit; longer is refused")
        .isEmpty();
    assertThat(TokenAuthenticator.bearer(null)).isEmpty();
  }
}
