package io.olmstead.controlplane.dev;

import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.HostedAgentSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.vertx.sqlclient.Pool;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION for {@code dev --simulate-hypershift N}: a {@link SimulatedManagementCluster} with N
 * HostedClusters ({@code clusters/hc-01}...), the {@link SimulatedHypershiftOperator} that brings
 * them up, and, once the control plane serves, a {@link DevHostedPool} (a replica of the real
 * hosted agent pool) serving the clusters its HyperShift watcher enrolls, or, with {@code
 * OLMSTEAD_HYPERSHIFT_AGENTS=per-cluster}, a {@link SimulatedKubelet} running the agent Deployments
 * the control plane writes. The watcher is the real one, pointed at {@link #kubeconfig()} before
 * the control plane starts.
 */
public final class DevHypershift implements AutoCloseable {
  public static final int MAX_HOSTED_CLUSTERS = 200;
  public static final String KUBECONFIG_FILE = "management.kubeconfig";

  /**
   * How long a simulated version takes from started to Completed (a few seconds: long enough to see
   * it).
   */
  public static final Duration DEFAULT_VERSION_DELAY = Duration.ofSeconds(3);

  private static final Logger LOG = LoggerFactory.getLogger(DevHypershift.class);
  private static final Duration OPERATOR_PERIOD = Duration.ofMillis(250);
  private static final Duration KUBELET_PERIOD = Duration.ofMillis(500);

  /**
   * The image name dev's per-cluster Deployments carry: nothing pulls it (the simulated kubelet
   * runs the agent).
   */
  public static final String DEV_AGENT_IMAGE = "olmstead/agent:dev";

  private final SimulatedManagementCluster management;
  private final SimulatedHypershiftOperator operator;
  private final Path kubeconfig;
  private DevHostedPool agents;
  private SimulatedKubelet kubelet;

  private DevHypershift(
      SimulatedManagementCluster management,
      SimulatedHypershiftOperator operator,
      Path kubeconfig) {
    this.management = management;
    this.operator = operator;
    this.kubeconfig = kubeconfig;
  }

  /** Checks {@code --simulate-hypershift} and {@code --hypershift-crds} before anything starts. */
  public static void check(int count, Path crdDir) {
    if (count < 0 || count > MAX_HOSTED_CLUSTERS) {
      throw new ConfigException(
          "--simulate-hypershift",
          "'" + count + "' hosted clusters: use 0 to " + MAX_HOSTED_CLUSTERS);
    }
    if (count > 0) {
      SimulatedManagementCluster.checkCrds(crdDir, "--hypershift-crds");
    }
  }

  /**
   * Starts the management cluster (its kubeconfig written to {@code
   * dataDir/management.kubeconfig}), the operator and {@code count} HostedClusters; call before the
   * control plane starts so that its watcher can be pointed here.
   */
  public static DevHypershift start(
      Path dataDir, Path crdDir, int count, Duration versionDelay, Duration rolloutDelay) {
    check(count, crdDir);
    Path kubeconfig = dataDir.resolve(KUBECONFIG_FILE).toAbsolutePath();
    SimulatedManagementCluster management = SimulatedManagementCluster.start(crdDir, kubeconfig);
    SimulatedHypershiftOperator operator =
        new SimulatedHypershiftOperator(management.client(), versionDelay, rolloutDelay)
            .start(OPERATOR_PERIOD);
    try {
      management.createHostedClusters(count);
    } catch (RuntimeException e) {
      operator.close();
      management.close();
      throw e;
    }
    LOG.warn(
        "SIMULATION: a simulated HyperShift management cluster at {} with {} (kubeconfig {});"
            + " they are not real clusters",
        management.url(),
        hostedClusters(count),
        kubeconfig);
    return new DevHypershift(management, operator, kubeconfig);
  }

  /**
   * Starts the dev pool replica: the control plane at {@code controlPlane} (its store {@code pool})
   * hands it every hosted cluster it enrolls. Call off any event loop.
   */
  public synchronized DevHypershift connectAgents(Pool pool, URI controlPlane) {
    return connectAgents(pool, controlPlane, false);
  }

  /**
   * As above for pool mode; in per-cluster mode ({@code perCluster}) the control plane deploys an
   * agent Deployment per hosted cluster into the management cluster instead, and a {@link
   * SimulatedKubelet} runs them (no pool replica).
   */
  public synchronized DevHypershift connectAgents(Pool pool, URI controlPlane, boolean perCluster) {
    if (perCluster && kubelet == null) {
      kubelet =
          new SimulatedKubelet(management.client(), MAX_HOSTED_CLUSTERS).start(KUBELET_PERIOD);
    } else if (!perCluster && agents == null) {
      agents = DevHostedPool.start(pool, controlPlane, management.client());
    }
    return this;
  }

  /**
   * The environment dev's control plane reads its HyperShift settings from: {@code environment} as
   * is in pool mode; in per-cluster mode the hosted agents' image defaults to {@value
   * #DEV_AGENT_IMAGE} (the simulated kubelet runs the agent in this process and pulls nothing) and
   * their control plane URL is dev's own ({@code url}, which must be known before the control plane
   * listens: not port 0).
   */
  public static Map<String, String> environment(
      Map<String, String> environment, String url, int port) {
    if (!PoolSettings.PER_CLUSTER.equals(environment.get(PoolSettings.AGENTS))) {
      return environment;
    }
    if (port == 0) {
      throw new ConfigException(
          "--port",
          "0 cannot be used with --simulate-hypershift when "
              + PoolSettings.AGENTS
              + " is "
              + PoolSettings.PER_CLUSTER
              + " (the agents' Deployments name dev's URL "
              + "before it listens)");
    }
    String given = environment.get(HostedAgentSettings.CONTROL_PLANE_URL);
    if (given != null && !given.isBlank() && !given.equals(url)) {
      throw new ConfigException(
          HostedAgentSettings.CONTROL_PLANE_URL,
          "'"
              + given
              + "' is not dev's own URL "
              + url
              + " (with --simulate-hypershift the simulated hosted agents dial this dev control plane); unset it");
    }
    Map<String, String> withDefaults = new HashMap<>(environment);
    withDefaults.putIfAbsent(HostedAgentSettings.IMAGE, DEV_AGENT_IMAGE);
    withDefaults.put(HostedAgentSettings.CONTROL_PLANE_URL, url);
    return withDefaults;
  }

  private static String hostedClusters(int count) {
    return count + (count == 1 ? " HostedCluster" : " HostedClusters");
  }

  /**
   * What dev prints once ready: what runs, and the kubeconfig to reach the management cluster with.
   */
  public String readyLine(int count) {
    return "SIMULATION: a simulated HyperShift management cluster with "
        + hostedClusters(count)
        + " (clusters/hc-01"
        + (count > 1 ? "..hc-" + String.format("%02d", count) : "")
        + ") runs in this process; the control plane "
        + "enrolls and connects them; kubeconfig "
        + kubeconfig
        + "; try: kubectl --kubeconfig "
        + kubeconfig
        + " get hostedclusters -A";
  }

  /**
   * The management cluster's kubeconfig file (what {@code OLMSTEAD_MANAGEMENT_KUBECONFIG} names).
   */
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

  /** The simulated kubelet running the per-cluster agents (null in pool mode). */
  public SimulatedKubelet kubelet() {
    return kubelet;
  }

  @Override
  public synchronized void close() {
    if (agents != null) {
      agents.close();
    }
    if (kubelet != null) {
      kubelet.close();
    }
    operator.close();
    management.close();
    LOG.info("SIMULATION of HyperShift stopped");
  }
}
