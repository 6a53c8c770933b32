package io.olmstead.agent.pool;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.olmstead.agent.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

/**
 * {@code olmstead-agent pool}: one process serving many HyperShift hosted clusters, those the control plane assigns
 * to this replica (configured by {@code OLMSTEAD_*} environment variables, {@link PoolConfig}).
 */
@Command(name = "pool", mixinStandardHelpOptions = true,
    description = "Run a hosted agent pool replica: serve the hosted clusters the control plane assigns to it.")
public final class PoolCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(PoolCommand.class);

  @Override
  public Integer call() throws ConfigException {
    PoolConfig config = PoolConfig.fromEnvironment();
    KubernetesClient management = new KubernetesClientBuilder().withConfig(managementConfig(config)).build();
    PoolReplica replica = PoolReplica.start(config, management);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      replica.close();
      management.close();
      stopped.countDown();
    }, "pool-shutdown"));
    LOG.info("pool replica running: {}", config);
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  static Config managementConfig(PoolConfig config) throws ConfigException {
    if (config.managementKubeconfig().isPresent()) {
      try {
        return Config.fromKubeconfig(Files.readString(config.managementKubeconfig().get()));
      } catch (IOException | RuntimeException e) {
        throw new ConfigException(PoolConfig.MANAGEMENT_KUBECONFIG + " could not be read as a kubeconfig: "
            + e.getMessage());
      }
    }
    Config auto = Config.autoConfigure(null);
    if (auto.getMasterUrl() == null || auto.getMasterUrl().isBlank()) {
      throw new ConfigException("no in-cluster Kubernetes configuration found; run in a pod or set "
          + PoolConfig.MANAGEMENT_KUBECONFIG + " to the management cluster's kubeconfig file");
    }
    return auto;
  }
}
