package io.olmstead.controlplane.subscription;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.olmstead.controlplane.selector.LabelSelector;
import java.util.List;
import java.util.Map;

/**
 * Whether a subscription's placement selects a cluster: the cluster is named in {@code clusters} or
 * its labels match {@code selector} (Kubernetes syntax; an empty selector matches every cluster, an
 * absent one none). A subscription owned by a team only ever selects clusters labelled {@code
 * olmstead.io/team=<team>}.
 */
public final class Placements {
  private static final int CACHE_SIZE = 1024;
  // placement evaluates the same few selectors against thousands of clusters: parse each once
  private static final Cache<String, LabelSelector> CACHE =
      Caffeine.newBuilder().maximumSize(CACHE_SIZE).executor(Runnable::run).build();
  private static final LabelSelector NOTHING =
      new LabelSelector(
          List.of(
              new LabelSelector.Requirement(
                  "olmstead.io/never", LabelSelector.Operator.EXISTS, List.of()),
              new LabelSelector.Requirement(
                  "olmstead.io/never", LabelSelector.Operator.DOES_NOT_EXIST, List.of())));

  private Placements() {}

  public static boolean selects(
      SubscriptionSpec spec, String clusterName, Map<String, String> labels) {
    if (spec.team() != null && !spec.team().equals(labels.get(SubscriptionSpec.TEAM_LABEL))) {
      return false;
    }
    SubscriptionSpec.Placement placement = spec.placement();
    if (placement == null) {
      return false;
    }
    if (placement.clusters().contains(clusterName)) {
      return true;
    }
    return placement.selector() != null && selector(placement.selector()).matches(labels);
  }

  /** The parsed selector; one that does not parse (it was checked when stored) selects nothing. */
  static LabelSelector selector(String text) {
    return CACHE.get(text, Placements::parse);
  }

  private static LabelSelector parse(String text) {
    try {
      return LabelSelector.parse(text);
    } catch (IllegalArgumentException e) {
      return NOTHING;
    }
  }
}
