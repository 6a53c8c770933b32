package io.olmstead.controlplane.webhooks;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which webhook {@code /webhooks/{name}?team=} means. Names are unique per team (and among the
 * fleet-wide webhooks of no team), so a name alone may name several. With {@code team}, the
 * caller's webhook of that team; without, the caller's only webhook of that name, or for a caller
 * without team scope the fleet-wide one. A webhook of a team the caller is not in answers exactly
 * as a missing one (404), so no answer tells whether another team uses a name.
 */
final class WebhookRefs {
  /** One stored webhook of the asked name: its id and the API's view of it. */
  record Found(long id, JsonObject view) {
    String team() {
      return view.getString("team");
    }
  }

  private WebhookRefs() {}

  /**
   * The webhook meant, from every webhook of that name (any team); 404 or 409 (ambiguous)
   * otherwise.
   */
  static Found choose(
      String name, Optional<String> askedTeam, Principal caller, List<Found> named) {
    String notFound = "no webhook " + name + askedTeam.map(t -> " of team " + t).orElse("");
    List<Found> asked =
        askedTeam.map(t -> named.stream().filter(w -> t.equals(w.team())).toList()).orElse(named);
    List<Found> visible = asked.stream().filter(w -> caller.mayAccessTeam(w.team())).toList();
    if (visible.isEmpty()) {
      throw asked.isEmpty() ? ApiException.notFound(notFound) : ApiException.hiddenByTeam(notFound);
    }
    if (visible.size() == 1) {
      return visible.get(0);
    }
    // only a caller without team scope sees the fleet-wide webhook: the bare name is its own
    // namespace's
    Optional<Found> fleetWide = visible.stream().filter(w -> w.team() == null).findFirst();
    return fleetWide.orElseThrow(
        () ->
            ApiException.conflict(
                "webhooks named "
                    + name
                    + " exist for teams "
                    + visible.stream().map(Found::team).filter(Objects::nonNull).sorted().toList()
                    + "; name one with ?team="));
  }
}
