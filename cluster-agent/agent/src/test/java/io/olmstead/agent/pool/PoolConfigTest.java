package io.olmstead.agent.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.agent.config.ConfigException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolConfigTest {
  private static Map<String, String> minimal() {
    Map<String, String> env = new HashMap<>();
    env.put(PoolConfig.CONTROL_PLANE_URL, "https://olmstead.example:8443");
    env.put(PoolConfig.POOL_TOKEN, "olm_pool_secret-value");
    env.put("HOSTNAME", "olmstead-pool-0");
    return env;
  }

  @Test
  void defaultsTheReplicaNameToTheHostnameAndTheManagementClusterToInCluster()
      throws ConfigException {
    PoolConfig config = PoolConfig.fromMap(minimal());
    assertThat(config.replica()).isEqualTo("olmstead-pool-0");
    assertThat(config.managementKubeconfig()).isEmpty();
    assertThat(config.reconcileThreads()).isEqualTo(8);
    assertThat(config.kubeconfigCheck()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void neverPrintsThePoolToken() throws ConfigException {
    assertThat(PoolConfig.fromMap(minimal()).toString())
        .doesNotContain("secret-value")
        .contains("poolToken=<set>");
  }

  @Test
  void refusesMissingOrBadSettingsNamingThem() {
    Map<String, String> noToken = minimal();
    noToken.remove(PoolConfig.POOL_TOKEN);
    assertThatThrownBy(() -> PoolConfig.fromMap(noToken))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(PoolConfig.POOL_TOKEN);
    Map<String, String> badUrl = minimal();
    badUrl.put(PoolConfig.CONTROL_PLANE_URL, "olmstead:8080");
    assertThatThrownBy(() -> PoolConfig.fromMap(badUrl))
        .hasMessageContaining(PoolConfig.CONTROL_PLANE_URL);
    Map<String, String> badName = minimal();
    badName.put(PoolConfig.REPLICA, "Pool_0");
    assertThatThrownBy(() -> PoolConfig.fromMap(badName)).hasMessageContaining(PoolConfig.REPLICA);
    Map<String, String> badCheck = minimal();
    badCheck.put(PoolConfig.KUBECONFIG_CHECK_SECONDS, "0");
    assertThatThrownBy(() -> PoolConfig.fromMap(badCheck))
        .hasMessageContaining(PoolConfig.KUBECONFIG_CHECK_SECONDS);
    Map<String, String> badThreads = minimal();
    badThreads.put(PoolConfig.RECONCILE_THREADS, "0");
    assertThatThrownBy(() -> PoolConfig.fromMap(badThreads))
        .hasMessageContaining(PoolConfig.RECONCILE_THREADS);
    Map<String, String> missingFile = minimal();
    missingFile.put(PoolConfig.MANAGEMENT_KUBECONFIG, "/nowhere/management.kubeconfig");
    assertThatThrownBy(() -> PoolConfig.fromMap(missingFile))
        .hasMessageContaining(PoolConfig.MANAGEMENT_KUBECONFIG);
  }
}
