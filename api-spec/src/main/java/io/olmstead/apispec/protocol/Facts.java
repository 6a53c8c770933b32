package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What the agent reports about its cluster; {@code mode} is in-guest, hosted, simulated or hollow;
 * {@code olm} says whether OLM's {@code operators.coreos.com} API is installed (null: the agent
 * could not tell).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Facts(
    String kubernetesVersion, String openshiftVersion, Integer nodes, String mode, Boolean olm) {
  public Facts(String kubernetesVersion, String openshiftVersion, Integer nodes, String mode) {
    this(kubernetesVersion, openshiftVersion, nodes, mode, null);
  }
}
