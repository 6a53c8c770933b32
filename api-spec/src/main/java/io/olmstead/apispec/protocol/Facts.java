package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/** What the agent reports about its cluster; {@code mode} is in-guest, hosted, simulated or hollow. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Facts(String kubernetesVersion, String openshiftVersion, Integer nodes, String mode) {
}
