package io.olmstead.controlplane.hypershift;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Blocker;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Minor;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadinessStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches each hosted cluster's desired OpenShift version against the {@code
 * olm.maxOpenShiftVersion} of the operators it runs: a HostedCluster upgrading past an installed
 * operator's maximum (what OLM in the guest would have refused, had the upgrade gone through
 * ClusterVersion) is logged, counted and written to the audit log (actor {@value
 * HostedStore#ACTOR}, action {@value #ACTION}) once per change, and counted in a gauge while it
 * lasts.
 */
final class UpgradeGuard {
  static final String ACTION = "hypershift.upgrade-past-max";
  private static final Logger LOG = LoggerFactory.getLogger(UpgradeGuard.class);
  private final Pool pool;
  private final UpgradeReadinessStore readiness = new UpgradeReadinessStore();
  private final HypershiftMetrics metrics;

  /** Cluster name -> what was reported for it (the desired version and the operators it passes). */
  private final Map<String, String> flagged = new ConcurrentHashMap<>();

  UpgradeGuard(Pool pool, HypershiftMetrics metrics) {
    this.pool = pool;
    this.metrics = metrics;
  }

  /** Checks the enrolled {@code cluster} of {@code hc}; reports when what it passes changed. */
  Future<List<Blocker>> check(String cluster, HostedCluster hc) {
    Optional<Minor> desired = Minor.of(hc.desiredVersion());
    if (desired.isEmpty()) {
      clear(cluster);
      return Future.succeededFuture(List.of());
    }
    return readiness
        .installedOn(pool, cluster)
        .compose(
            installed -> {
              // the desired version itself is the target: an operator whose maximum is below it is
              // passed
              List<Blocker> passed = UpgradeReadiness.blockers(desired.get(), installed, Map.of());
              if (passed.isEmpty()) {
                clear(cluster);
                return Future.succeededFuture(passed);
              }
              String signature =
                  hc.desiredVersion()
                      + " "
                      + passed.stream()
                          .map(b -> b.operator().subscription() + "=" + b.operator().bundle())
                          .toList();
              String before = flagged.put(cluster, signature);
              metrics.pastMax(flagged.size());
              if (signature.equals(before)) {
                return Future.succeededFuture(passed);
              }
              metrics.pastMaxReported();
              LOG.warn(
                  "hypershift: cluster {} ({}) is moving to OpenShift {}: {}",
                  cluster,
                  hc.key(),
                  hc.desiredVersion(),
                  UpgradeReadiness.message(passed));
              return Audit.record(
                      pool,
                      new AuditEntry(
                          HostedStore.ACTOR,
                          ACTION,
                          "clusters/" + cluster,
                          AuditEntry.FAILURE,
                          detail(hc, passed),
                          null))
                  .map(passed);
            });
  }

  /** Forgets a cluster (retired, or no longer past any maximum). */
  void clear(String cluster) {
    if (cluster != null && flagged.remove(cluster) != null) {
      metrics.pastMax(flagged.size());
    }
  }

  private static JsonObject detail(HostedCluster hc, List<Blocker> passed) {
    JsonArray operators = new JsonArray();
    passed.forEach(
        b ->
            operators.add(
                new JsonObject()
                    .put("subscription", b.operator().subscription())
                    .put("namespace", b.operator().namespace())
                    .put("bundle", b.operator().bundle())
                    .put("maxOpenShiftVersion", b.operator().maxOpenShiftVersion())));
    return new JsonObject()
        .put("reason", "desired-version-past-operator-maximum")
        .put("hostedCluster", hc.key())
        .put("desiredVersion", hc.desiredVersion())
        .put("operators", operators)
        .put("detail", UpgradeReadiness.message(passed));
  }
}
