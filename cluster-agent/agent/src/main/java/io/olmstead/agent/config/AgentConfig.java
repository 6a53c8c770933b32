package io.olmstead.agent.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The agent runtime's typed configuration, read once from {@code OLMSTEAD_*} environment variables
 * and validated at start. Tests build it from a {@code Map}.
 *
 * @param mode in-guest (in-cluster config) or hosted (kubeconfig to the guest API)
 * @param kubeconfig the guest kubeconfig, required in hosted mode
 * @param clusterName the name this cluster enrolls under
 * @param controlPlaneUrl the control plane base URL (the channel client dials it), empty when not
 *     set
 * @param workers reconcile worker threads (at most one pass per namespace at a time regardless)
 * @param resync how often every managed namespace is reconciled even without events (drift on
 *     unwatched kinds)
 * @param enrollmentToken the one-time enrollment token, used only while no credential is stored
 *     (never logged)
 * @param credentialFile where the per-cluster credential is kept between runs when no Secret is
 *     named
 * @param credentialSecret {@code namespace/name} of a Secret in the guest cluster that keeps the
 *     credential instead
 */
public record AgentConfig(
    AgentMode mode,
    Optional<Path> kubeconfig,
    String clusterName,
    Optional<String> controlPlaneUrl,
    int workers,
    Duration resync,
    Optional<String> enrollmentToken,
    Path credentialFile,
    Optional<String> credentialSecret) {

  public static final String MODE = "OLMSTEAD_AGENT_MODE";
  public static final String KUBECONFIG = "OLMSTEAD_KUBECONFIG";
  public static final String CLUSTER_NAME = "OLMSTEAD_CLUSTER_NAME";
  public static final String CONTROL_PLANE_URL = "OLMSTEAD_CONTROL_PLANE_URL";
  public static final String WORKERS = "OLMSTEAD_AGENT_WORKERS";
  public static final String RESYNC_SECONDS = "OLMSTEAD_AGENT_RESYNC_SECONDS";
  public static final String ENROLLMENT_TOKEN = "OLMSTEAD_ENROLLMENT_TOKEN";
  public static final String CREDENTIAL_FILE = "OLMSTEAD_CREDENTIAL_FILE";
  public static final String CREDENTIAL_SECRET = "OLMSTEAD_CREDENTIAL_SECRET";

  /** Every variable the agent reads (deploy/agent may set only these). */
  public static final Set<String> ENVIRONMENT =
      Set.of(
          MODE,
          KUBECONFIG,
          CLUSTER_NAME,
          CONTROL_PLANE_URL,
          WORKERS,
          RESYNC_SECONDS,
          ENROLLMENT_TOKEN,
          CREDENTIAL_FILE,
          CREDENTIAL_SECRET,
          "OLMSTEAD_AGENT_HEALTH_PORT");

  private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

  /** Reads the process environment. */
  public static AgentConfig fromEnvironment() throws ConfigException {
    return fromMap(System.getenv());
  }

  /** Reads and validates a map of {@code OLMSTEAD_*} variables; unknown variables are ignored. */
  public static AgentConfig fromMap(Map<String, String> env) throws ConfigException {
    AgentMode mode = AgentMode.parse(env.getOrDefault(MODE, AgentMode.IN_GUEST.text()));
    Optional<Path> kubeconfig = Optional.ofNullable(blankToNull(env.get(KUBECONFIG))).map(Path::of);
    if (mode == AgentMode.HOSTED) {
      if (kubeconfig.isEmpty()) {
        throw new ConfigException(
            KUBECONFIG + " is required when " + MODE + "=hosted (the guest cluster's kubeconfig)");
      }
      if (!Files.isReadable(kubeconfig.get())) {
        throw new ConfigException(
            KUBECONFIG + " points at " + kubeconfig.get() + ", which is not a readable file");
      }
    }
    String clusterName = blankToNull(env.get(CLUSTER_NAME));
    if (clusterName == null) {
      throw new ConfigException(
          CLUSTER_NAME + " is required (the name this cluster is known by in the control plane)");
    }
    if (!clusterName.matches(DNS_LABEL)) {
      throw new ConfigException(
          CLUSTER_NAME
              + " must be a DNS label (lowercase letters, digits, '-', at most 63), not '"
              + clusterName
              + "'");
    }
    Optional<String> url = Optional.ofNullable(blankToNull(env.get(CONTROL_PLANE_URL)));
    if (url.isPresent() && !url.get().matches("(?i)https?://.+")) {
      throw new ConfigException(
          CONTROL_PLANE_URL + " must be an http(s) URL, not '" + url.get() + "'");
    }
    int workers = intValue(env, WORKERS, 2, 1, 64);
    Duration resync = Duration.ofSeconds(intValue(env, RESYNC_SECONDS, 300, 1, 86_400));
    Optional<String> token = Optional.ofNullable(blankToNull(env.get(ENROLLMENT_TOKEN)));
    Path credentialFile =
        Path.of(
            Optional.ofNullable(blankToNull(env.get(CREDENTIAL_FILE)))
                .orElse("/var/run/olmstead/credential"));
    Optional<String> secret = Optional.ofNullable(blankToNull(env.get(CREDENTIAL_SECRET)));
    if (secret.isPresent()
        && !secret.get().matches(DNS_LABEL + "/[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
      throw new ConfigException(
          CREDENTIAL_SECRET
              + " must be <namespace>/<name> of a Secret, not '"
              + secret.get()
              + "'");
    }
    return new AgentConfig(
        mode, kubeconfig, clusterName, url, workers, resync, token, credentialFile, secret);
  }

  /** Never prints the enrollment token. */
  @Override
  public String toString() {
    return "AgentConfig[mode="
        + mode.text()
        + ", kubeconfig="
        + kubeconfig.orElse(null)
        + ", clusterName="
        + clusterName
        + ", controlPlaneUrl="
        + controlPlaneUrl.orElse(null)
        + ", workers="
        + workers
        + ", resync="
        + resync
        + ", enrollmentToken="
        + (enrollmentToken.isPresent() ? "<set>" : "<unset>")
        + ", credentialFile="
        + credentialFile
        + ", credentialSecret="
        + credentialSecret.orElse(null)
        + "]";
  }

  private static int intValue(Map<String, String> env, String name, int dflt, int min, int max)
      throws ConfigException {
    String text = blankToNull(env.get(name));
    if (text == null) {
      return dflt;
    }
    try {
      int value = Integer.parseInt(text.trim());
      if (value < min || value > max) {
        throw new ConfigException(
            name + " must be between " + min + " and " + max + ", not " + value);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new ConfigException(name + " must be a whole number, not '" + text + "'");
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}
