package io.olmstead.controlplane.dev;

import io.olmstead.controlplane.config.ConfigException;
import io.vertx.sqlclient.Pool;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION for {@code dev --simulate-hypershift N}: a {@link SimulatedManagementCluster} with N HostedClusters
 * ({@code clusters/hc-01}...), the {@link SimulatedHypershiftOperator} that brings them up, and, once the control
 * plane serves, a {@link DevHostedPool} (a replica of the real hosted agent pool) serving the clusters its HyperShift
 * watcher enrolls. The watcher is the real one, pointed at {@link #kubeconfig()} before the control plane starts.
 */
public final class DevHypershift implements AutoCloseable {
  public static final int MAX_HOSTED_CLUSTERS = 200;
  public static final String KUBECONFIG_FILE = "management.kubeconfig";
  /** How long a simulated version takes from started to Completed (a few seconds: long enough to see it). */
  public static final Duration DEFAULT_VERSION_DELAY = Duration.ofSeconds(3);
  private static final Logger LOG = LoggerFactory.getLogger(DevHypershift.class);
  private static final Duration OPERATOR_PERIOD = Duration.ofMillis(250);

  private final SimulatedManagementCluster management;
  private final SimulatedHypershiftOperator operator;
  private final Path kubeconfig;
  private DevHostedPool agents;

  private DevHypershift(SimulatedManagementCluster management, SimulatedHypershiftOperator operator, Path kubeconfig) {
    this.management = management;
    this.operator = operator;
    this.kubeconfig = kubeconfig;
  }

  /** Checks {@code --simulate-hypershift} and {@code --hypershift-crds} before anything starts. */
  public static void check(int count, Path crdDir) {
    if (count < 0 || count > MAX_HOSTED_CLUSTERS) {
      throw new ConfigException("--simulate-hypershift", "'" + count + "' hosted clusters: use 0 to "
          + MAX_HOSTED_CLUSTERS);
    }
    if (count > 0) {
      SimulatedManagementCluster.checkCrds(crdDir, "--hypershift-crds");
    }
  }

  /**
   * Starts the management cluster (its kubeconfig written to {@code dataDir/management.kubeconfig}), the operator and
   * {@code count} HostedClusters; call before the control plane starts so that its watcher can be pointed here.
   */
  public static DevHypershift start(Path dataDir, Path crdDir, int count, Duration versionDelay,
      Duration rolloutDelay) {
    check(count, crdDir);
    Path kubeconfig = dataDir.resolve(KUBECONFIG_FILE).toAbsolutePath();
    SimulatedManagementCluster management = SimulatedManagementCluster.start(crdDir, kubeconfig);
    SimulatedHypershiftOperator operator = new SimulatedHypershiftOperator(management.client(), versionDelay,
        rolloutDelay).start(OPERATOR_PERIOD);
    try {
      management.createHostedClusters(count);
    } catch (RuntimeException e) {
      operator.close();
      management.close();
      throw e;
    }
    LOG.warn("SIMULATION: a simulated HyperShift management cluster at {} with {} HostedClusters (kubeconfig {});"
        + " they are not real clusters", management.url(), count, kubeconfig);
    return new DevHypershift(management, operator, kubeconfig);
  }

  /**
   * Starts the dev pool replica: the control plane at {@code controlPlane} (its store {@code pool}) hands it every
   * hosted cluster it enrolls. Call off any event loop.
   */
  public synchronized DevHypershift connectAgents(Pool pool, URI controlPlane) {
    if (agents == null) {
      agents = DevHostedPool.start(pool, controlPlane, management.client());
    }
    return this;
  }

  /** What dev prints once ready: what runs, and the kubeconfig to reach the management cluster with. */
  public String readyLine(int count) {
    return "SIMULATION: a simulated HyperShift management cluster with " + count + " HostedClusters (clusters/hc-01"
        + (count > 1 ? "..hc-" + String.format("%02d", count) : "") + ") runs in this process; the control plane "
        + "enrolls and connects them; kubeconfig " + kubeconfig + "; try: kubectl --kubeconfig " + kubeconfig
        + " get hostedclusters -A";
  }

  /** The management cluster's kubeconfig file (what {@code OLMSTEAD_MANAGEMENT_KUBECONFIG} names). */
  public Path kubeconfig() {
    return kubeconfig;
  }

  public SimulatedManagementCluster management() {
    return management;
  }

  public SimulatedHypershiftOperator operator() {
    return operator;
  }

  public DevHostedPool agents() {
    return agents;
  }

  @Override
  public synchronized void close() {
    if (agents != null) {
      agents.close();
    }
    operator.close();
    management.close();
    LOG.info("SIMULATION of HyperShift stopped");
  }
}
