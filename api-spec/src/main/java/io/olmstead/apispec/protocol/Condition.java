package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A Kubernetes-style condition ({@code status} is True, False or Unknown). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Condition(
    String type, String status, String reason, String message, String lastTransitionTime) {}
