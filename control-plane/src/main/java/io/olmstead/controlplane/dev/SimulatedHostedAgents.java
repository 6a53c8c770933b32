package io.olmstead.controlplane.dev;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.reconcile.AgentReconciler;
import io.olmstead.agent.reconcile.ChannelBridge;
import io.olmstead.agent.reconcile.ControlPlaneCatalogs;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.olmstead.apispec.protocol.Facts;
import io.olmstead.controlplane.store.Tx;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION, dev only: a simulated hosted agent for every cluster the HyperShift watcher enrolled. The control plane
 * gives a hosted cluster no credential yet (the hosted agent pool that will is being built), so dev does what an
 * admin can do by hand: it creates an enrollment token bound to the cluster's name (audited, actor {@code system}),
 * and the agent exchanges it on {@code POST /agent/enroll}, which takes over the {@code pending} cluster under its
 * name. The agent reaches its guest API through the kubeconfig secret the HostedCluster names on the management
 * cluster, as a hosted agent would. Every {@code period} the enrolled clusters are read again: a new one gets its
 * agent, a retired or deleted one loses it.
 */
public final class SimulatedHostedAgents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SimulatedHostedAgents.class);
  private static final String ENROLLED = "SELECT h.cluster, h.namespace, h.name FROM hosted_clusters h JOIN clusters c"
      + " ON c.name = h.cluster WHERE h.retired_at IS NULL AND c.status <> 'retired'";
  private static final int STARTERS = 16;

  private final Vertx vertx;
  private final Pool pool;
  private final URI controlPlane;
  private final KubernetesClient management;
  private final Map<String, Agent> agents = new ConcurrentHashMap<>();
  private final SimulationLoop loop = new SimulationLoop("sim-hosted-agents");
  /** Starts agents several at a time (informers wait on their guest API): one slow guest must not hold up the rest. */
  private final ExecutorService starters = Executors.newFixedThreadPool(STARTERS, r -> {
    Thread t = new Thread(r, "sim-hosted-agent-start");
    t.setDaemon(true);
    return t;
  });
  private final Set<String> starting = ConcurrentHashMap.newKeySet();

  /** {@code vertx}: the agents' own (not the control plane's); {@code pool}: the control plane's store. */
  public SimulatedHostedAgents(Vertx vertx, Pool pool, URI controlPlane, KubernetesClient management) {
    this.vertx = vertx;
    this.pool = pool;
    this.controlPlane = controlPlane;
    this.management = management;
  }

  public SimulatedHostedAgents start(Duration period) {
    loop.every(period, this::round);
    return this;
  }

  /** The clusters that have a simulated agent now. */
  public List<String> running() {
    return List.copyOf(agents.keySet());
  }

  private void round() {
    try {
      Map<String, Row> enrolled = new HashMap<>();
      for (Row row : await(pool.query(ENROLLED).execute())) {
        enrolled.put(row.getString("cluster"), row);
      }
      for (String cluster : List.copyOf(agents.keySet())) {
        if (!enrolled.containsKey(cluster)) {
          LOG.info("SIMULATED hosted agent of {} stopped (its cluster is retired or gone)", cluster);
          agents.remove(cluster).close();
        }
      }
      List<Row> fresh = enrolled.values().stream().filter(row -> !agents.containsKey(row.getString("cluster"))
          && !starting.contains(row.getString("cluster"))).toList();
      if (fresh.isEmpty()) {
        return;
      }
      // one audited transaction for the tokens of every cluster enrolled since the last round
      Map<String, String> tokens = await(DevSimulation.enrollmentTokens(new Tx(pool),
          fresh.stream().map(row -> row.getString("cluster")).toList()));
      for (Row row : fresh) {
        String cluster = row.getString("cluster");
        starting.add(cluster);
        starters.execute(() -> {
          try {
            start(cluster, row.getString("namespace"), row.getString("name"), tokens.get(cluster));
          } catch (ResourceException | RuntimeException e) {
            LOG.debug("simulated hosted agent of {} not started yet: {}", cluster, e.toString());
          } finally {
            starting.remove(cluster);
          }
        });
      }
    } catch (RuntimeException e) {
      LOG.debug("simulated hosted agents round failed (next round retries): {}", e.toString());
    }
  }

  private void start(String cluster, String namespace, String name, String token) throws ResourceException {
    GenericKubernetesResource hc = management.genericKubernetesResources(SimulatedManagementCluster.HOSTED_CLUSTERS)
        .inNamespace(namespace).withName(name).get();
    Object secretName = hc == null ? null : hc.get("status", "kubeconfig", "name");
    Secret secret = secretName == null ? null
        : management.secrets().inNamespace(namespace).withName(secretName.toString()).get();
    if (secret == null || secret.getData() == null || secret.getData().get(SimulatedHypershiftOperator.KUBECONFIG_KEY)
        == null) {
      return; // not provisioned (or being deleted): the next round looks again
    }
    String kubeconfig = new String(Base64.getDecoder().decode(secret.getData()
        .get(SimulatedHypershiftOperator.KUBECONFIG_KEY)), StandardCharsets.UTF_8);
    Object version = hc.get("status", "version", "desired", "version");
    KubernetesClient guest = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
    CredentialStorage credential = CredentialStorage.inMemory();
    ChannelBridge bridge = new ChannelBridge();
    AgentReconciler reconciler = new AgentReconciler(cluster, guest, new ControlPlaneCatalogs(controlPlane,
        credential), bridge, ReconcilerOptions.defaults());
    ChannelOptions options = ChannelOptions.of(controlPlane, cluster, token).withFacts(new Facts("v1.32.0-simulated",
        version == null ? null : version.toString(), 1, "simulated"));
    ChannelClient channel = new ChannelClient(vertx, vertx.createHttpClient(), vertx.createWebSocketClient(), options,
        credential, bridge);
    bridge.bind(reconciler, channel);
    // connecting does not wait for the informers' first list (as in the pool): the desired state waits in the loop
    channel.start();
    try {
      reconciler.start();
    } catch (ResourceException | RuntimeException e) {
      new Agent(channel, reconciler, guest).close();
      throw e;
    }
    agents.put(cluster, new Agent(channel, reconciler, guest));
    LOG.info("SIMULATED hosted agent of {} started (guest API {})", cluster, guest.getMasterUrl());
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    loop.close();
    starters.shutdownNow();
    try {
      starters.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    agents.values().forEach(Agent::close);
    agents.clear();
  }

  private record Agent(ChannelClient channel, AgentReconciler reconciler, KubernetesClient guest) {
    void close() {
      try {
        channel.stop().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        // the control plane notices the closed socket or the missed heartbeats either way
      }
      reconciler.close();
      guest.close();
    }
  }
}
