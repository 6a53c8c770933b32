package io.olmstead.controlplane.hypershift;

import io.olmstead.controlplane.hypershift.Decision.Mode;
import io.olmstead.controlplane.hypershift.HostedLabels.Checked;
import io.olmstead.controlplane.hypershift.Known.Holder;
import io.olmstead.controlplane.hypershift.Known.Identity;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what to do about a HostedCluster from the object, whether its kubeconfig secret is there,
 * and what Olmstead knows (pure). Identity is {@code spec.clusterID}: a cluster enrolled for one
 * clusterID is never handed to another, and a cluster enrolled some other way is never taken over
 * (a conflict is reported instead).
 */
public final class Decider {
  private Decider() {}

  /** The decision for a HostedCluster that exists on the management cluster. */
  public static Decision decide(
      HostedCluster hc, boolean kubeconfigPresent, Known known, Instant now) {
    if (hc.namespace() == null || hc.name() == null) {
      return Decision.ignore(null, "malformed", "the HostedCluster has no namespace or name");
    }
    if (hc.clusterId() == null) {
      return Decision.ignore(null, "no-cluster-id", hc.key() + " has no spec.clusterID yet");
    }
    Optional<Identity> identity = known.byId();
    if (identity.isPresent()
        && !identity.get().retired()
        && known.byName().isPresent()
        && hc.clusterId().equals(known.byName().get().clusterId())) {
      return live(hc, identity.get(), known.byName().get(), now);
    }
    String leaving = hc.deleting() ? "deleting" : hc.optedOut() ? "opted-out" : null;
    if (leaving != null) {
      // a live identity whose cluster row an admin deleted has nothing left to retire
      return Decision.ignore(
          identity.map(Identity::cluster).orElse(null), leaving, hc.key() + " is " + leaving);
    }
    String notReady = notReady(hc, kubeconfigPresent);
    if (notReady != null) {
      return Decision.ignore(
          identity.map(Identity::cluster).orElse(null), notReady, hc.key() + ": " + notReady);
    }
    Checked<String> name =
        identity.map(i -> Checked.ok(i.cluster())).orElseGet(() -> HostedLabels.clusterName(hc));
    if (!name.valid()) {
      return Decision.ignore(null, name.reason(), hc.key() + ": " + name.detail());
    }
    return enroll(hc, identity, name.value(), known.byName(), now);
  }

  /** The decision for a known clusterID whose HostedCluster is gone from the management cluster. */
  public static Decision gone(Identity identity) {
    return identity.retired()
        ? Decision.unchanged(identity.cluster())
        : Decision.retire(
            identity.cluster(),
            "gone",
            "the HostedCluster of clusterID " + identity.clusterId() + " no longer exists");
  }

  private static Decision live(HostedCluster hc, Identity identity, Holder holder, Instant now) {
    if (hc.deleting() || hc.optedOut()) {
      String reason = hc.deleting() ? "deleting" : "opted-out";
      return Decision.retire(identity.cluster(), reason, hc.key() + " is " + reason);
    }
    Checked<Map<String, String>> desired = HostedLabels.desired(hc, now);
    if (!desired.valid()) {
      return Decision.ignore(
          identity.cluster(), desired.reason(), hc.key() + ": " + desired.detail());
    }
    Checked<Map<String, String>> labels =
        HostedLabels.merge(holder.labels(), identity.appliedLabels(), desired.value());
    if (!labels.valid()) {
      return Decision.ignore(
          identity.cluster(), labels.reason(), hc.key() + ": " + labels.detail());
    }
    JsonObject facts = HostedLabels.facts(hc);
    boolean same =
        labels.value().equals(holder.labels())
            && desired.value().equals(identity.appliedLabels())
            && facts.equals(holder.facts().getJsonObject(HostedLabels.FACTS_KEY));
    return same
        ? Decision.unchanged(identity.cluster())
        : Decision.update(identity.cluster(), labels.value(), desired.value(), facts);
  }

  private static Decision enroll(
      HostedCluster hc,
      Optional<Identity> identity,
      String name,
      Optional<Holder> holder,
      Instant now) {
    Mode mode = Mode.NEW;
    Map<String, String> current = Map.of();
    Map<String, String> applied = Map.of();
    if (holder.isPresent()) {
      Holder h = holder.get();
      if (h.clusterId() == null) {
        return Decision.conflict(
            name,
            "enrolled-otherwise",
            "cluster "
                + name
                + " was enrolled otherwise (not by"
                + " the HyperShift watcher); "
                + hc.key()
                + " (clusterID "
                + hc.clusterId()
                + ") is not enrolled");
      }
      if (h.clusterId().equals(hc.clusterId()) && h.retired()) {
        mode = Mode.REVIVE;
        current = h.labels();
        applied = identity.map(Identity::appliedLabels).orElse(Map.of());
      } else if (!h.clusterId().equals(hc.clusterId()) && h.retired()) {
        mode = Mode.REPLACE;
      } else if (!h.clusterId().equals(hc.clusterId())) {
        return Decision.conflict(
            name,
            "name-taken",
            "cluster "
                + name
                + " belongs to the HostedCluster of clusterID "
                + h.clusterId()
                + "; "
                + hc.key()
                + " (clusterID "
                + hc.clusterId()
                + ") is not enrolled");
      }
    }
    Checked<Map<String, String>> desired = HostedLabels.desired(hc, now);
    if (!desired.valid()) {
      return Decision.ignore(name, desired.reason(), hc.key() + ": " + desired.detail());
    }
    Checked<Map<String, String>> labels = HostedLabels.merge(current, applied, desired.value());
    if (!labels.valid()) {
      return Decision.ignore(name, labels.reason(), hc.key() + ": " + labels.detail());
    }
    return Decision.enroll(mode, name, labels.value(), desired.value(), HostedLabels.facts(hc));
  }

  /** Why the HostedCluster is not ready to enroll, or null. */
  private static String notReady(HostedCluster hc, boolean kubeconfigPresent) {
    if (!hc.condition("Available")) {
      return "not-available";
    }
    if (hc.kubeconfigSecret() == null || !kubeconfigPresent) {
      return "no-kubeconfig";
    }
    if (hc.completedVersion() == null) {
      return "no-completed-version";
    }
    return null;
  }
}
