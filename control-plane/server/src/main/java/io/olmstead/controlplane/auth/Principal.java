package io.olmstead.controlplane.auth;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.problem.ApiException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The caller behind an API token. A team-scoped principal ({@code teams} non-empty) sees and
 * changes only what belongs to one of its teams: clusters labelled {@value #TEAM_LABEL} with one of
 * them, subscriptions and rollouts whose team is one of them, enrollment tokens labelled with one
 * of them, API tokens whose teams are all its own, and events about those. Lists filter in SQL with
 * {@link #teamFilter()} (so pages and cursors hold only what the caller may see); a single object
 * of another team is answered as if it did not exist (404). {@code actor} is how the audit log
 * names the caller: {@code token:<name>} for an API token, {@code token:oidc:<id> (<username>)} for
 * single sign-on, where the id stands for the issuer and subject and the username is only shown.
 */
public record Principal(UUID tokenId, String name, Role role, List<String> teams, String actor) {
  public static final String TEAM_LABEL = "olmstead.io/team";

  public Principal {
    teams = List.copyOf(teams);
  }

  /** An API token's caller, audited as {@code token:<name>}. */
  public Principal(UUID tokenId, String name, Role role, List<String> teams) {
    this(tokenId, name, role, teams, "token:" + name);
  }

  /**
   * Whether this caller signed in with OIDC rather than an API token: its id is the name-based
   * (version 3) UUID of its issuer and subject, while API token ids are random (version 4); it has
   * no row to revoke in {@code api_tokens}.
   */
  public boolean sso() {
    return tokenId.version() == 3;
  }

  public boolean teamScoped() {
    return !teams.isEmpty();
  }

  /**
   * The SQL parameter every team-filtered query takes, {@code ($n::text[] IS NULL OR team =
   * ANY($n))}: null for a caller without a team scope (it sees every team), else its teams.
   */
  public String[] teamFilter() {
    return teamScoped() ? teams.toArray(new String[0]) : null;
  }

  /**
   * Whether this caller may see or touch something owned by {@code team} (null: owned by no team).
   */
  public boolean mayAccessTeam(String team) {
    return !teamScoped() || (team != null && teams.contains(team));
  }

  /**
   * The object when this caller may see it; 404 when there is none or it belongs to a team the
   * caller is not in (the same answer, so other teams' names cannot be probed; the second is
   * audited as denied).
   */
  public <T> T visible(Optional<T> found, Function<T, String> teamOf, String notFound) {
    T object = found.orElseThrow(() -> ApiException.notFound(notFound));
    if (!mayAccessTeam(teamOf.apply(object))) {
      throw ApiException.hiddenByTeam(notFound);
    }
    return object;
  }

  /** Whether this caller may see or touch an object carrying these labels. */
  public boolean mayAccessLabels(Map<String, String> labels) {
    return mayAccessTeam(labels == null ? null : labels.get(TEAM_LABEL));
  }

  /**
   * Whether every team of {@code others} is one of this caller's (a scoped caller grants only what
   * it has).
   */
  public boolean coversTeams(Collection<String> others) {
    return !teamScoped() || (!others.isEmpty() && teams.containsAll(others));
  }
}
