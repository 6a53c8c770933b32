package io.olmstead.agent.sim;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.reconcile.AgentReconciler;
import io.olmstead.agent.reconcile.CatalogProvider;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.olmstead.agent.reconcile.StatusSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION: one dev-mode cluster in the current process: a fabric8 mock API server in CRUD mode
 * (answering kubectl's discovery, {@link DiscoveringCrudDispatcher}), a {@link KubeletStandIn}, and
 * a real {@link AgentReconciler} against it. {@code dev --simulate N} starts N of them, named
 * {@code sim-01}..., labelled {@code env=dev} and a cycling {@code region}; facts say it is
 * simulated.
 */
public final class SimulatedCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SimulatedCluster.class);
  private static final List<String> REGIONS = List.of("us-east", "eu-west", "ap-south");

  private final String name;
  private final Map<String, String> labels;
  private final boolean failing;
  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final KubeletStandIn kubelet;
  private final CatalogProvider catalogs;
  private final StatusSink sink;
  private final ReconcilerOptions options;
  private volatile AgentReconciler agent;

  private SimulatedCluster(
      String name,
      Map<String, String> labels,
      boolean failing,
      KubernetesMockServer server,
      KubernetesClient client,
      KubeletStandIn kubelet,
      AgentReconciler agent,
      CatalogProvider catalogs,
      StatusSink sink,
      ReconcilerOptions options) {
    this.name = name;
    this.labels = labels;
    this.failing = failing;
    this.server = server;
    this.client = client;
    this.kubelet = kubelet;
    this.agent = agent;
    this.catalogs = catalogs;
    this.sink = sink;
    this.options = options;
  }

  /**
   * The name of the {@code index}-th simulated cluster (1-based): {@code sim-01}, {@code sim-02},
   * ...
   */
  public static String nameFor(int index) {
    return String.format("sim-%02d", index);
  }

  /**
   * The labels of the {@code index}-th simulated cluster (1-based): {@code env=dev}, region
   * cycling.
   */
  public static Map<String, String> labelsFor(int index) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("env", "dev");
    labels.put("region", REGIONS.get((index - 1) % REGIONS.size()));
    labels.put("olmstead.io/simulated", "true");
    return labels;
  }

  /**
   * Starts the {@code index}-th simulated cluster.
   *
   * @param failDeployments true when this cluster's Deployments should fail their progress deadline
   * @param rolloutDelay how long the simulated kubelet takes to make a CRD Established or a
   *     Deployment Available
   */
  public static SimulatedCluster start(
      int index,
      boolean failDeployments,
      CatalogProvider catalogs,
      StatusSink sink,
      Duration rolloutDelay,
      ReconcilerOptions options)
      throws ResourceException {
    String name = nameFor(index);
    // The mock web server logs every request through JUL at INFO: far too chatty for a dev-mode
    // fleet.
    java.util.logging.Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new DiscoveringCrudDispatcher(),
            false);
    server.init();
    KubernetesClient client = server.createClient();
    ResourceOperator resources = new ResourceOperator(client, new ResourceKinds());
    KubeletStandIn kubelet =
        new KubeletStandIn(name, resources, rolloutDelay, failDeployments)
            .start(Duration.ofMillis(Math.max(20, Math.min(200, rolloutDelay.toMillis() / 4))));
    AgentReconciler agent = new AgentReconciler(name, client, catalogs, sink, options);
    try {
      agent.start();
    } catch (ResourceException | RuntimeException e) {
      kubelet.close();
      client.close();
      destroy(server, name);
      throw e;
    }
    LOG.info(
        "SIMULATED cluster {} started (mock API server {}, deployments {})",
        name,
        client.getMasterUrl(),
        failDeployments
            ? "FAIL their progress deadline"
            : "become Available after " + rolloutDelay);
    return new SimulatedCluster(
        name,
        labelsFor(index),
        failDeployments,
        server,
        client,
        kubelet,
        agent,
        catalogs,
        sink,
        options);
  }

  /**
   * Starts {@code count} clusters; those named in {@code failing} (e.g. {@code sim-03}) get failing
   * Deployments.
   */
  public static List<SimulatedCluster> startFleet(
      int count,
      List<String> failing,
      CatalogProvider catalogs,
      Function<String, StatusSink> sinks,
      Duration rolloutDelay,
      ReconcilerOptions options)
      throws ResourceException {
    List<SimulatedCluster> started = new ArrayList<>();
    try {
      for (int i = 1; i <= count; i++) {
        String name = nameFor(i);
        started.add(
            start(i, failing.contains(name), catalogs, sinks.apply(name), rolloutDelay, options));
      }
      return started;
    } catch (ResourceException | RuntimeException e) {
      started.forEach(SimulatedCluster::close);
      throw e;
    }
  }

  public String name() {
    return name;
  }

  public Map<String, String> labels() {
    return labels;
  }

  /** The facts the agent reports in {@code hello}: clearly a simulation. */
  public Map<String, Object> facts() {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("kubernetesVersion", "v1.31.0-simulated");
    facts.put("nodes", 1);
    facts.put("mode", "simulated");
    facts.put("simulated", true);
    facts.put("simulatedFailure", failing);
    return facts;
  }

  public AgentReconciler agent() {
    return agent;
  }

  /** A client to the cluster's mock API server (for inspecting what the agent did). */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Restarts the agent as a new process would: the reconcile loop is stopped and a fresh one (no
   * memory of the old one's state) is started against the same API server, which keeps every object
   * the old one created.
   */
  public synchronized AgentReconciler restartAgent() throws ResourceException {
    agent.close();
    AgentReconciler fresh = new AgentReconciler(name, client, catalogs, sink, options);
    fresh.start();
    agent = fresh;
    LOG.info("SIMULATED cluster {}: agent restarted", name);
    return fresh;
  }

  public KubeletStandIn kubelet() {
    return kubelet;
  }

  @Override
  public void close() {
    agent.close();
    kubelet.close();
    client.close();
    destroy(server, name);
    LOG.info("SIMULATED cluster {} stopped", name);
  }

  /**
   * Stops the mock API server. fabric8's mock waits on its event loop, for up to a minute, for a
   * closed watch's event sender, and that sender may itself wait for the event loop to write
   * ({@code WatchEventsListener.onClosed}); the server then reports it could not close within its
   * own 10 s. Nothing of the cluster is used after this, so that is logged, not thrown: the
   * server's threads end when the mock's wait does.
   */
  private static void destroy(KubernetesMockServer server, String name) {
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      LOG.warn("SIMULATED cluster {}: mock API server still closing ({})", name, e.getMessage());
    }
  }
}
