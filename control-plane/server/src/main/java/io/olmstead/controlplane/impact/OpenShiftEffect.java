package io.olmstead.controlplane.impact;

import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Minor;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * What the target's {@code olm.maxOpenShiftVersion} does to a cluster's OpenShift upgrades (pure),
 * by the rule of {@link UpgradeReadiness}: the cluster's next minor is blocked by a bundle whose
 * maximum is below it. {@code NotOpenShift} (no OpenShift version known), {@code None} (neither
 * bundle blocks), {@code BlocksUpgrade} (the target blocks the next minor, the installed bundle did
 * not), {@code Unblocks} (the reverse), {@code StillBlocks} (both block).
 */
public final class OpenShiftEffect {
  public static final String NOT_OPENSHIFT = "NotOpenShift";
  public static final String NONE = "None";
  public static final String BLOCKS = "BlocksUpgrade";
  public static final String UNBLOCKS = "Unblocks";
  public static final String STILL_BLOCKS = "StillBlocks";

  private OpenShiftEffect() {}

  /** {@code clusterVersion} may be null (not OpenShift, or not known yet). */
  public static JsonObject of(
      UpgradeReadiness.ClusterVersion clusterVersion, String installedMax, String targetMax) {
    Optional<Minor> current =
        clusterVersion == null ? Optional.empty() : Minor.of(clusterVersion.version());
    if (current.isEmpty()) {
      return new JsonObject().put("effect", NOT_OPENSHIFT);
    }
    Minor next = current.get().next();
    boolean before = UpgradeReadiness.allows(installedMax, next);
    boolean after = UpgradeReadiness.allows(targetMax, next);
    String effect = before && after ? NONE : before ? BLOCKS : after ? UNBLOCKS : STILL_BLOCKS;
    JsonObject json =
        new JsonObject()
            .put("version", clusterVersion.version())
            .put("source", clusterVersion.source())
            .put("nextMinor", next.toString())
            .put("effect", effect);
    if (!after) {
      json.put(
          "message",
          "the target's olm.maxOpenShiftVersion "
              + targetMax
              + " keeps this cluster from OpenShift "
              + next);
    }
    return json;
  }
}
