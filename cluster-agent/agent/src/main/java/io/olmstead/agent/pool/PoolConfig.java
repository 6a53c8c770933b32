package io.olmstead.agent.pool;

import io.olmstead.agent.config.ConfigException;
import io.olmstead.agent.health.HealthSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The hosted agent pool's typed configuration ({@code olmstead-agent pool}), read once from {@code
 * OLMSTEAD_*} variables and validated at start. Tests build it from a {@code Map}.
 *
 * @param controlPlaneUrl the control plane's http(s) URL
 * @param poolToken the pool token (never printed or logged)
 * @param replica this replica's name (a StatefulSet pod's name: stable across restarts)
 * @param managementKubeconfig the management cluster's kubeconfig file, empty for the pod's service
 *     account
 * @param reconcileThreads reconcile threads of the replica, shared by every cluster it serves
 * @param resync full reconcile period of each served cluster
 * @param kubeconfigCheck how often each served cluster's kubeconfig secret is read again (rotation)
 */
public record PoolConfig(
    String controlPlaneUrl,
    String poolToken,
    String replica,
    Optional<Path> managementKubeconfig,
    int reconcileThreads,
    Duration resync,
    Duration kubeconfigCheck) {
  public static final String CONTROL_PLANE_URL = "OLMSTEAD_CONTROL_PLANE_URL";
  public static final String POOL_TOKEN = "OLMSTEAD_POOL_TOKEN";
  public static final String REPLICA = "OLMSTEAD_POOL_REPLICA";
  public static final String MANAGEMENT_KUBECONFIG = "OLMSTEAD_MANAGEMENT_KUBECONFIG";
  public static final String RECONCILE_THREADS = "OLMSTEAD_POOL_RECONCILE_THREADS";
  public static final String RESYNC_SECONDS = "OLMSTEAD_AGENT_RESYNC_SECONDS";
  public static final String KUBECONFIG_CHECK_SECONDS = "OLMSTEAD_POOL_KUBECONFIG_CHECK_SECONDS";
  public static final String IN_CLUSTER = "in-cluster";

  /** Every variable the pool reads ({@code HOSTNAME} is the default replica name). */
  public static final Set<String> ENVIRONMENT =
      Set.of(
          CONTROL_PLANE_URL,
          POOL_TOKEN,
          REPLICA,
          MANAGEMENT_KUBECONFIG,
          RECONCILE_THREADS,
          RESYNC_SECONDS,
          KUBECONFIG_CHECK_SECONDS,
          HealthSettings.PORT);

  private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

  public static PoolConfig fromEnvironment() throws ConfigException {
    return fromMap(System.getenv());
  }

  public static PoolConfig fromMap(Map<String, String> env) throws ConfigException {
    String url = value(env, CONTROL_PLANE_URL);
    if (url == null || !url.matches("(?i)https?://.+")) {
      throw new ConfigException(
          CONTROL_PLANE_URL
              + " must be the control plane's http(s) URL, not '"
              + (url == null ? "" : url)
              + "'");
    }
    String token = value(env, POOL_TOKEN);
    if (token == null) {
      throw new ConfigException(
          POOL_TOKEN
              + " is required (a pool token an admin created with POST /api/v1/pool-tokens)");
    }
    String replica = value(env, REPLICA) != null ? value(env, REPLICA) : value(env, "HOSTNAME");
    if (replica == null || !replica.matches(DNS_LABEL)) {
      throw new ConfigException(
          REPLICA
              + " (default: HOSTNAME) must be a DNS label, not '"
              + (replica == null ? "" : replica)
              + "'");
    }
    String kubeconfig = value(env, MANAGEMENT_KUBECONFIG);
    Optional<Path> management =
        kubeconfig == null || IN_CLUSTER.equals(kubeconfig)
            ? Optional.empty()
            : Optional.of(Path.of(kubeconfig));
    if (management.isPresent() && !Files.isReadable(management.get())) {
      throw new ConfigException(
          MANAGEMENT_KUBECONFIG
              + " points at "
              + kubeconfig
              + ", which is not a readable file"
              + " (or set it to "
              + IN_CLUSTER
              + ")");
    }
    return new PoolConfig(
        url,
        token,
        replica,
        management,
        number(env, RECONCILE_THREADS, 8, 1, 64),
        Duration.ofSeconds(number(env, RESYNC_SECONDS, 300, 1, 86_400)),
        Duration.ofSeconds(number(env, KUBECONFIG_CHECK_SECONDS, 60, 1, 3600)));
  }

  /** Never prints the pool token. */
  @Override
  public String toString() {
    return "PoolConfig[controlPlaneUrl="
        + controlPlaneUrl
        + ", replica="
        + replica
        + ", managementKubeconfig="
        + managementKubeconfig.map(Path::toString).orElse(IN_CLUSTER)
        + ", reconcileThreads="
        + reconcileThreads
        + ", resync="
        + resync
        + ", kubeconfigCheck="
        + kubeconfigCheck
        + ", poolToken=<set>]";
  }

  private static int number(Map<String, String> env, String name, int dflt, int min, int max)
      throws ConfigException {
    String text = value(env, name);
    if (text == null) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(text);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigException(
        name + " must be a whole number between " + min + " and " + max + ", not '" + text + "'");
  }

  private static String value(Map<String, String> env, String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? null : v.trim();
  }
}
