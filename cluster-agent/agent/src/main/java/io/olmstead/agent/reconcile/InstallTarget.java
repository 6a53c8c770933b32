package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.fbc.Bundle;

/**
 * One bundle to drive for one subscription.
 *
 * @param subscription the (possibly implied) subscription
 * @param bundle the catalog bundle
 * @param channel the channel it was resolved in (recorded for restarts)
 * @param previous the agent's record of this bundle from an earlier pass, or null when it is new
 * @param replaces the installed bundle it replaces, or null
 * @param dependencyOf the subscription whose dependency this is, or null
 */
public record InstallTarget(
    SubscriptionToReconcile subscription,
    Bundle bundle,
    String channel,
    ObservedBundle previous,
    ObservedBundle replaces,
    String dependencyOf) {}
