package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class WebhookRefsTest {
  private static final Principal ADMIN =
      new Principal(UUID.randomUUID(), "admin", Role.ADMIN, List.of());
  private static final Principal RED =
      new Principal(UUID.randomUUID(), "red", Role.ADMIN, List.of("red"));
  private static final Principal RED_AND_BLUE =
      new Principal(UUID.randomUUID(), "both", Role.ADMIN, List.of("red", "blue"));
  private static final WebhookRefs.Found FLEET = found(1, null);
  private static final WebhookRefs.Found RED_HOOK = found(2, "red");
  private static final WebhookRefs.Found BLUE_HOOK = found(3, "blue");

  private static WebhookRefs.Found found(long id, String team) {
    return new WebhookRefs.Found(id, new JsonObject().put("name", "alerts").put("team", team));
  }

  private static WebhookRefs.Found choose(
      Optional<String> team, Principal caller, WebhookRefs.Found... named) {
    return WebhookRefs.choose("alerts", team, caller, List.of(named));
  }

  @Test
  void aTeamsBareNameMeansItsOwnWebhookWhateverOtherTeamsHold() {
    assertThat(choose(Optional.empty(), RED, FLEET, RED_HOOK, BLUE_HOOK)).isEqualTo(RED_HOOK);
    assertThat(choose(Optional.of("red"), RED, FLEET, RED_HOOK, BLUE_HOOK)).isEqualTo(RED_HOOK);
  }

  @Test
  void anotherTeamsWebhookIsAnsweredAsMissingAndAuditedAsDenied() {
    assertThatThrownBy(() -> choose(Optional.empty(), RED, BLUE_HOOK))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(404);
              assertThat(e.teamDenied()).isTrue();
              assertThat(e.getMessage()).doesNotContain("blue");
            });
    assertThatThrownBy(() -> choose(Optional.of("blue"), RED, BLUE_HOOK))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));
    assertThatThrownBy(() -> choose(Optional.empty(), RED))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(404);
              assertThat(e.teamDenied()).isFalse();
            });
  }

  @Test
  void anUnscopedAdminsBareNameMeansTheFleetWideWebhookAndATeamParameterAnyTeams() {
    assertThat(choose(Optional.empty(), ADMIN, FLEET, RED_HOOK, BLUE_HOOK)).isEqualTo(FLEET);
    assertThat(choose(Optional.of("blue"), ADMIN, FLEET, RED_HOOK, BLUE_HOOK)).isEqualTo(BLUE_HOOK);
    assertThat(choose(Optional.empty(), ADMIN, BLUE_HOOK)).isEqualTo(BLUE_HOOK);
  }

  @Test
  void aBareNameSeveralOfTheCallersTeamsUseIsAConflictNamingOnlyThoseTeams() {
    assertThatThrownBy(() -> choose(Optional.empty(), RED_AND_BLUE, FLEET, RED_HOOK, BLUE_HOOK))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.getMessage()).contains("[blue, red]");
            });
    assertThatThrownBy(() -> choose(Optional.empty(), ADMIN, RED_HOOK, BLUE_HOOK))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));
  }
}
