package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.fbc.Bundle;

/**
 * What one pass does for one subscription.
 *
 * @param action the step
 * @param bundle the bundle to drive (install, upgrade to, continue, or keep healthy); null when
 *     there is none
 * @param replaces the bundle being replaced (upgrades), else null
 * @param held the bundle the subscription would move to but may not yet (approval, Upgradeable),
 *     else null
 * @param reason OLM reason for held/unresolved states
 * @param message human-readable detail for held/unresolved states
 */
public record Decision(
    Action action, String bundle, String replaces, Bundle held, String reason, String message) {

  /** The kinds of step. */
  public enum Action {
    /** First install of {@link #bundle()}. */
    INSTALL,
    /** Start replacing {@link #replaces()} with {@link #bundle()}. */
    UPGRADE,
    /**
     * Replace {@link #replaces()} (above maxVersion) with the older {@link #bundle()}: a fleet
     * rollback, installed like an upgrade. {@link #replaces()} is null when the bundle above
     * maxVersion never succeeded.
     */
    DOWNGRADE,
    /**
     * Keep driving a bundle whose install already started (survives restarts, needs no new
     * approval).
     */
    CONTINUE,
    /**
     * Nothing newer to do: keep {@link #bundle()} as installed (drift restored, health watched).
     */
    STEADY,
    /** A next bundle exists but Manual approval for exactly it is missing. */
    AWAIT_APPROVAL,
    /** A next bundle exists but the installed operator's Upgradeable condition blocks it. */
    BLOCKED,
    /**
     * The installed bundle is above maxVersion but may not go back: olm-core's CRD rules refuse the
     * older bundle ({@link SubscriptionStatus#DOWNGRADE_REFUSED}) or the channel has nothing at or
     * below maxVersion ({@link SubscriptionStatus#DOWNGRADE_TARGET_MISSING}). {@link #held()} is
     * the refused bundle, if any.
     */
    DOWNGRADE_REFUSED,
    /** No bundle can be chosen (resolution failed, catalog missing, version policy unmet). */
    UNRESOLVED
  }

  static Decision drive(Action action, String bundle, String replaces) {
    return new Decision(action, bundle, replaces, null, null, null);
  }

  static Decision hold(
      Action action, String installed, Bundle held, String reason, String message) {
    return new Decision(action, installed, null, held, reason, message);
  }

  /**
   * True when the pass applies a new or continuing bundle (as opposed to only keeping the installed
   * one).
   */
  public boolean moves() {
    return action == Action.INSTALL
        || action == Action.UPGRADE
        || action == Action.DOWNGRADE
        || action == Action.CONTINUE;
  }
}
