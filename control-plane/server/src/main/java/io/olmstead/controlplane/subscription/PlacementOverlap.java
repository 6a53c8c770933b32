package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.selector.LabelSelector.Requirement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether two subscriptions could both select one cluster for the same package and namespace
 * (pure). Two such subscriptions would fight over the same operator objects, so the second is
 * refused. The rule over-approximates (a refusal may name an overlap no cluster has yet; an
 * accepted pair can never overlap through selectors):
 *
 * <ul>
 *   <li>other package or install namespace, or two different teams (a team's subscription only
 *       selects clusters labelled {@code olmstead.io/team=<team>}): no overlap;
 *   <li>a cluster named by both: overlap;
 *   <li>two selectors overlap unless they provably exclude each other on some label key (with the
 *       team label added as a requirement): e.g. {@code env=prod} and {@code env=dev}, {@code env
 *       in (a,b)} and {@code env notin (a,b)}, {@code gpu} and {@code !gpu}; anything else
 *       (different keys, {@code !=}, numeric comparisons) may overlap;
 *   <li>a cluster named by one and selected by the other's selector, both with its labels now:
 *       overlap (labels can change later; the agent then refuses the second owner, see
 *       docs/catalogs-and-subscriptions.md).
 * </ul>
 */
public final class PlacementOverlap {
  private PlacementOverlap() {}

  /**
   * Why {@code a} and {@code b} may select a common cluster, or empty when they cannot.
   *
   * @param labels current labels of the clusters either names explicitly (missing: unknown cluster,
   *     no labels)
   */
  public static Optional<String> between(
      SubscriptionSpec a, SubscriptionSpec b, Map<String, Map<String, String>> labels) {
    if (!a.packageName().equals(b.packageName()) || !a.namespace().equals(b.namespace())) {
      return Optional.empty();
    }
    return placements(a, b, labels);
  }

  /**
   * Why the placements of {@code a} and {@code b} may select a common cluster, whatever they
   * install where.
   */
  public static Optional<String> placements(
      SubscriptionSpec a, SubscriptionSpec b, Map<String, Map<String, String>> labels) {
    if (a.team() != null && b.team() != null && !a.team().equals(b.team())) {
      return Optional.empty();
    }
    SubscriptionSpec.Placement pa = a.placement();
    SubscriptionSpec.Placement pb = b.placement();
    if (pa == null || pb == null) {
      return Optional.empty();
    }
    Set<String> named = new HashSet<>(pa.clusters());
    for (String c : pb.clusters()) {
      if (named.contains(c)) {
        return Optional.of("both name cluster " + c);
      }
    }
    if (pa.selector() != null
        && pb.selector() != null
        && !disjoint(
            withTeam(Placements.selector(pa.selector()), a.team()),
            withTeam(Placements.selector(pb.selector()), b.team()))) {
      return Optional.of(
          "selectors '"
              + pa.selector()
              + "' and '"
              + pb.selector()
              + "' can match the same cluster");
    }
    Optional<String> aInB = namedAndSelected(a, b, labels);
    return aInB.isPresent() ? aInB : namedAndSelected(b, a, labels);
  }

  private static Optional<String> namedAndSelected(
      SubscriptionSpec own, SubscriptionSpec other, Map<String, Map<String, String>> labels) {
    if (other.placement().selector() == null) {
      return Optional.empty();
    }
    for (String c : own.placement().clusters()) {
      Map<String, String> l = labels.getOrDefault(c, Map.of());
      if (Placements.selects(own, c, l) && Placements.selects(other, c, l)) {
        return Optional.of(
            "cluster "
                + c
                + " is named by one and matches selector '"
                + other.placement().selector()
                + "' of the other");
      }
    }
    return Optional.empty();
  }

  private static LabelSelector withTeam(LabelSelector selector, String team) {
    if (team == null) {
      return selector;
    }
    List<Requirement> all = new ArrayList<>(selector.requirements());
    all.add(
        new Requirement(SubscriptionSpec.TEAM_LABEL, LabelSelector.Operator.EQUALS, List.of(team)));
    return new LabelSelector(all);
  }

  /**
   * True when no set of labels satisfies both selectors: some key's requirements leave it no
   * possible state.
   */
  static boolean disjoint(LabelSelector a, LabelSelector b) {
    Map<String, KeyConstraint> keys = new HashMap<>();
    for (LabelSelector s : List.of(a, b)) {
      for (Requirement r : s.requirements()) {
        keys.computeIfAbsent(r.key(), k -> new KeyConstraint()).add(r);
      }
    }
    return keys.values().stream().anyMatch(k -> !k.satisfiable());
  }

  /**
   * What the requirements on one key allow: the key absent, and which values (null: any but {@code
   * excluded}).
   */
  private static final class KeyConstraint {
    private boolean absentAllowed = true;
    private Set<String> allowed;
    private final Set<String> excluded = new HashSet<>();

    void add(Requirement r) {
      switch (r.operator()) {
        case EQUALS, IN -> {
          absentAllowed = false;
          restrict(new HashSet<>(r.values()));
        }
        case NOT_EQUALS, NOT_IN -> excluded.addAll(r.values());
        case EXISTS, GREATER_THAN, LESS_THAN ->
            absentAllowed = false; // numeric ranges: assumed to meet
        case DOES_NOT_EXIST -> restrict(new HashSet<>());
        default -> throw new IllegalStateException("unknown operator " + r.operator());
      }
    }

    private void restrict(Set<String> values) {
      if (allowed == null) {
        allowed = values;
      } else {
        allowed.retainAll(values);
      }
    }

    boolean satisfiable() {
      if (absentAllowed) {
        return true;
      }
      return allowed == null || allowed.stream().anyMatch(v -> !excluded.contains(v));
    }
  }
}
