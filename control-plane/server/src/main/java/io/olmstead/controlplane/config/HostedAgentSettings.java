package io.olmstead.controlplane.config;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the control plane deploys into each hosted control plane namespace when {@code
 * OLMSTEAD_HYPERSHIFT_AGENTS} is {@code per-cluster}: the agent image ({@code
 * OLMSTEAD_HOSTED_AGENT_IMAGE}; the control-plane image sets it to the agent image built with it),
 * the control plane URL those agents dial, and the namespace the control plane runs in (their
 * NetworkPolicy lets them reach that namespace's control plane pods only).
 */
public record HostedAgentSettings(
    Optional<String> image, String controlPlaneUrl, String controlPlaneNamespace) {
  public static final String IMAGE = "OLMSTEAD_HOSTED_AGENT_IMAGE";
  public static final String CONTROL_PLANE_URL = "OLMSTEAD_HOSTED_AGENT_CONTROL_PLANE_URL";
  public static final String CONTROL_PLANE_NAMESPACE =
      "OLMSTEAD_HOSTED_AGENT_CONTROL_PLANE_NAMESPACE";
  public static final Set<String> ENVIRONMENT =
      Set.of(IMAGE, CONTROL_PLANE_URL, CONTROL_PLANE_NAMESPACE);
  private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

  public HostedAgentSettings {
    image.ifPresent(
        i -> {
          if (!i.matches("[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}")) {
            throw new ConfigException(IMAGE, "'" + i + "' is not an image reference");
          }
        });
    if (!controlPlaneUrl.matches("(?i)https?://[^\\s]+")) {
      throw new ConfigException(
          CONTROL_PLANE_URL, "'" + controlPlaneUrl + "' is not an http(s) URL");
    }
    if (!controlPlaneNamespace.matches(DNS_LABEL)) {
      throw new ConfigException(
          CONTROL_PLANE_NAMESPACE, "'" + controlPlaneNamespace + "' is not a namespace name");
    }
  }

  public static HostedAgentSettings fromEnvironment(Map<String, String> environment) {
    EnvReader env = new EnvReader(environment);
    return new HostedAgentSettings(
        env.string(IMAGE),
        env.string(CONTROL_PLANE_URL).orElse("http://olmstead-control-plane.olmstead-system.svc"),
        env.string(CONTROL_PLANE_NAMESPACE).orElse("olmstead-system"));
  }

  /** The image, which per-cluster mode requires (checked at start). */
  public String requiredImage() {
    return image.orElseThrow(
        () ->
            new ConfigException(
                IMAGE,
                "is required when OLMSTEAD_HYPERSHIFT_AGENTS is "
                    + "per-cluster (the agent image to run in each hosted control plane namespace)"));
  }
}
