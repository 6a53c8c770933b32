package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * In a {@code desired} message: "check whether {@code version} of {@code subscription} could be
 * installed here now, and answer with a {@code preflight} message echoing {@code requestId}". Not
 * an approval: nothing is installed. {@code bundle} names the target bundle when the control plane
 * knows it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PreflightRequest(
    String requestId, String subscription, String version, String bundle) {}
