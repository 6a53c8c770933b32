package io.olmstead.controlplane.access;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * From an identity's groups to one role and its teams (a principal has one role). Never more than
 * any matched entry grants: when matched entries differ in role the lowest wins, and fleet-wide
 * access only when every matched entry is fleet-wide; otherwise the principal is scoped to the
 * union of the matched entries' teams.
 */
public final class RoleMapping {
  private RoleMapping() {}

  /** {@code group} maps to {@code role}, on {@code teams} (empty: fleet-wide). */
  public record Entry(String group, Role role, List<String> teams) {}

  /** The role and teams, or empty when no entry matches (the identity may not use the API). */
  public static Optional<Grant> grant(List<Entry> map, List<String> groups) {
    List<Entry> matched = map.stream().filter(e -> groups.contains(e.group())).toList();
    if (matched.isEmpty()) {
      return Optional.empty();
    }
    Role role = matched.stream().map(Entry::role).min(Comparator.naturalOrder()).orElseThrow();
    boolean fleetWide = matched.stream().allMatch(e -> e.teams().isEmpty());
    LinkedHashSet<String> teams = new LinkedHashSet<>();
    if (!fleetWide) {
      matched.forEach(e -> teams.addAll(e.teams()));
    }
    return Optional.of(new Grant(role, new ArrayList<>(teams)));
  }

  /** What a mapped identity may do. */
  public record Grant(Role role, List<String> teams) {}
}
