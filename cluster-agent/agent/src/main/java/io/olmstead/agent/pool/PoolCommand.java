package io.olmstead.agent.pool;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.olmstead.agent.config.ConfigException;
import io.olmstead.agent.config.KubernetesClients;
import io.olmstead.agent.health.HealthSettings;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

/**
 * {@code olmstead-agent pool}: one process serving many HyperShift hosted clusters, those the
 * control plane assigns to this replica (configured by {@code OLMSTEAD_*} environment variables,
 * {@link PoolConfig}).
 */
@Command(
    name = "pool",
    mixinStandardHelpOptions = true,
    description =
        "Run a hosted agent pool replica: serve the hosted clusters the control plane assigns to it.",
    footer = {
      "",
      "Environment:",
      "  OLMSTEAD_CONTROL_PLANE_URL   the control plane's http(s) URL (required)",
      "  OLMSTEAD_POOL_TOKEN          the pool token (required)",
      "  OLMSTEAD_POOL_REPLICA        this replica's name (default: HOSTNAME)",
      "  OLMSTEAD_MANAGEMENT_KUBECONFIG  the management cluster's kubeconfig (default: in-cluster)",
      "  OLMSTEAD_AGENT_HEALTH_PORT   /healthz and /readyz port (default 8081; 0 turns them off);",
      "                               ready while connected to the control plane with the pool token"
    })
public final class PoolCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(PoolCommand.class);

  @Override
  public Integer call() throws ConfigException {
    PoolConfig config = PoolConfig.fromEnvironment();
    KubernetesClient management =
        new KubernetesClientBuilder().withConfig(managementConfig(config)).build();
    PoolReplica replica = PoolReplica.start(config, management);
    try {
      replica.serveProbes(HealthSettings.fromMap(System.getenv()));
    } catch (ConfigException e) {
      replica.close();
      management.close();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  replica.close();
                  management.close();
                  stopped.countDown();
                },
                "pool-shutdown"));
    LOG.info("pool replica running: {}", config);
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  static Config managementConfig(PoolConfig config) throws ConfigException {
    return KubernetesClients.kubeconfigOrInCluster(
        config.managementKubeconfig(),
        PoolConfig.MANAGEMENT_KUBECONFIG,
        PoolConfig.MANAGEMENT_KUBECONFIG + " to the management cluster's kubeconfig file");
  }
}
