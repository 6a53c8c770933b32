package io.olmstead.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.config.AgentConfig;
import io.olmstead.agent.config.ConfigException;
import io.olmstead.agent.config.KubernetesClients;
import io.olmstead.agent.health.HealthServer;
import io.olmstead.agent.health.HealthSettings;
import io.olmstead.agent.health.KubeApiProbe;
import io.olmstead.agent.health.ReadinessCheck;
import io.olmstead.agent.inventory.InventoryCollector;
import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.k8s.ClusterFacts;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.SecretCredentialStorage;
import io.olmstead.agent.reconcile.AgentReconciler;
import io.olmstead.agent.reconcile.ChannelBridge;
import io.olmstead.agent.reconcile.ControlPlaneCatalogs;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

/**
 * {@code olmstead-agent run}: the real agent. Reads {@code OLMSTEAD_*} configuration, connects to
 * the guest cluster (in-guest or hosted), dials the control plane and runs the reconcile loop until
 * the process is stopped.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description =
        "Run the agent against this cluster (configured by OLMSTEAD_* environment variables).",
    footer = {
      "",
      "Environment:",
      "  OLMSTEAD_CLUSTER_NAME        the name this cluster is known by (a DNS label; required)",
      "  OLMSTEAD_CONTROL_PLANE_URL   the control plane's http(s) URL (required)",
      "  OLMSTEAD_ENROLLMENT_TOKEN    one-time enrollment token, used while no credential is stored",
      "  OLMSTEAD_CREDENTIAL_SECRET   namespace/name of a Secret keeping the cluster credential",
      "  OLMSTEAD_CREDENTIAL_FILE     else a file keeping it (default /var/run/olmstead/credential)",
      "  OLMSTEAD_AGENT_MODE          in-guest (default) or hosted",
      "  OLMSTEAD_KUBECONFIG          the guest cluster's kubeconfig (required when hosted)",
      "  OLMSTEAD_AGENT_WORKERS       reconcile workers, 1-64 (default 2)",
      "  OLMSTEAD_AGENT_RESYNC_SECONDS  full reconcile period, 1-86400 (default 300)",
      "  OLMSTEAD_AGENT_HEALTH_PORT   /healthz and /readyz port (default 8081; 0 turns them off)"
    })
public final class RunCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

  @Override
  public Integer call() throws ConfigException {
    Running agent = start(System.getenv());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  agent.close();
                  stopped.countDown();
                },
                "agent-shutdown"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  /** A started agent; {@link #close} stops it as the process's shutdown hook does. */
  public interface Running extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Starts the agent configured by {@code env} (what {@code run} reads from the process
   * environment) and returns once it runs; dev's simulated kubelet starts hosted agents in its
   * process through this, with a pod's environment.
   */
  public static Running start(Map<String, String> env) throws ConfigException {
    AgentConfig config = AgentConfig.fromMap(env);
    if (config.controlPlaneUrl().isEmpty()) {
      throw new ConfigException(AgentConfig.CONTROL_PLANE_URL + " is required to run the agent");
    }
    HealthSettings health = HealthSettings.fromMap(env);
    URI controlPlane = URI.create(config.controlPlaneUrl().get());
    KubernetesClient client = KubernetesClients.forConfig(config);
    CredentialStorage credentials;
    try {
      credentials = credentialStorage(config, client);
    } catch (ConfigException | RuntimeException e) {
      client.close();
      throw e;
    }
    ChannelBridge bridge = new ChannelBridge();
    AgentReconciler reconciler =
        new AgentReconciler(
            config.clusterName(),
            client,
            new ControlPlaneCatalogs(controlPlane, credentials),
            bridge,
            ReconcilerOptions.from(config));
    Vertx vertx = Vertx.vertx();
    ChannelOptions options =
        ChannelOptions.of(controlPlane, config.clusterName(), config.enrollmentToken().orElse(null))
            .withFacts(ClusterFacts.of(client, config.mode().text()));
    ChannelClient channel =
        new ChannelClient(
            vertx,
            vertx.createHttpClient(),
            vertx.createWebSocketClient(),
            options,
            credentials,
            bridge);
    bridge.bind(reconciler, channel);
    var inventory =
        new InventoryReporter(
            config.clusterName(),
            new InventoryCollector(client, reconciler::statuses),
            channel::publishInventory,
            InventoryReporter.INTERVAL);
    Running running =
        () -> {
          inventory.close();
          channel.stop();
          reconciler.close();
          if (credentials instanceof SecretCredentialStorage secret) {
            secret.close();
          }
          client.close();
          vertx.close();
        };
    try {
      reconciler.start();
      channel.start();
      KubeApiProbe apiProbe =
          new KubeApiProbe(
              vertx,
              client::getKubernetesVersion,
              String.valueOf(client.getMasterUrl()),
              Duration.ofSeconds(10));
      startProbes(vertx, health, apiProbe, channel, controlPlane);
      inventory.start();
    } catch (ResourceException e) {
      running.close();
      throw new ConfigException("cannot reach the guest cluster's API: " + e.getMessage());
    } catch (ConfigException | RuntimeException e) {
      running.close();
      throw e;
    }
    LOG.info("agent running: {}", config);
    return running;
  }

  /** Liveness and readiness for the kubelet (deploy/agent's probes); off when the port is 0. */
  static void startProbes(
      Vertx vertx,
      HealthSettings health,
      KubeApiProbe apiProbe,
      ChannelClient channel,
      URI controlPlane)
      throws ConfigException {
    if (!health.enabled()) {
      return;
    }
    apiProbe.start();
    ReadinessCheck connected =
        () ->
            channel.isConnected()
                ? Optional.empty()
                : Optional.of(
                    "not connected to the control plane at "
                        + controlPlane
                        + channel
                            .lastCloseReason()
                            .map(r -> " (last close: " + r + ")")
                            .orElse(""));
    HealthServer.serve(
        vertx, health, Map.of("control-plane", connected, "kubernetes-api", apiProbe));
  }

  /**
   * A Secret in the guest cluster when one is named (in-guest default in deploy/agent), else a
   * file.
   */
  static CredentialStorage credentialStorage(AgentConfig config, KubernetesClient client)
      throws ConfigException {
    if (config.credentialSecret().isEmpty()) {
      return CredentialStorage.file(config.credentialFile());
    }
    String[] ref = config.credentialSecret().get().split("/", 2);
    try {
      return SecretCredentialStorage.open(client, ref[0], ref[1]);
    } catch (KubernetesClientException e) {
      throw new ConfigException(
          "cannot read the credential Secret named by "
              + AgentConfig.CREDENTIAL_SECRET
              + " ("
              + config.credentialSecret().get()
              + "): HTTP "
              + e.getCode());
    }
  }
}
