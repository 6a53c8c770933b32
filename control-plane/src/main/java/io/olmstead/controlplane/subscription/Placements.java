package io.olmstead.controlplane.subscription;

import java.util.Map;

/**
 * Whether a subscription's placement selects a cluster: the cluster is named in {@code clusters} or its labels
 * match {@code selector} (Kubernetes syntax; an empty selector matches every cluster, an absent one none). A
 * subscription owned by a team only ever selects clusters labelled {@code olmstead.io/team=<team>}.
 */
public final class Placements {
  private Placements() {
  }

  public static boolean selects(SubscriptionSpec spec, String clusterName, Map<String, String> labels) {
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
    return placement.selector() != null && Selectors.matches(placement.selector(), labels);
  }
}
