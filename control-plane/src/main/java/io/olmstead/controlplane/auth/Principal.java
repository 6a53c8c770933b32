package io.olmstead.controlplane.auth;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The caller behind an API token. A team-scoped principal ({@code teams} non-empty) sees and changes only clusters
 * labelled {@value #TEAM_LABEL} with one of its teams, and subscriptions of its teams.
 */
public record Principal(UUID tokenId, String name, Role role, List<String> teams) {
  public static final String TEAM_LABEL = "olmstead.io/team";

  public Principal {
    teams = List.copyOf(teams);
  }

  /** How the audit log names this caller. */
  public String actor() {
    return "token:" + name;
  }

  public boolean teamScoped() {
    return !teams.isEmpty();
  }

  /** Whether this caller may see or touch something owned by {@code team} (null: owned by no team). */
  public boolean mayAccessTeam(String team) {
    return !teamScoped() || (team != null && teams.contains(team));
  }

  /** Whether this caller may see or touch an object carrying these labels. */
  public boolean mayAccessLabels(Map<String, String> labels) {
    return mayAccessTeam(labels == null ? null : labels.get(TEAM_LABEL));
  }

  /** Whether every team of {@code others} is one of this caller's (a scoped caller grants only what it has). */
  public boolean coversTeams(Collection<String> others) {
    return !teamScoped() || (!others.isEmpty() && teams.containsAll(others));
  }
}
