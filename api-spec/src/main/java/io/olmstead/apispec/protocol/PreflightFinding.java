package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One named result of a preflight check: {@code code} is a stable name (e.g. {@code
 * ExistingResourceInvalid}), {@code severity} {@code Error} (the target must not be installed here)
 * or {@code Warning}, {@code subject} what it is about (a CRD, a custom resource, a namespace),
 * {@code message} a sentence for people.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PreflightFinding(String code, String severity, String subject, String message) {
  public static final String ERROR = "Error";
  public static final String WARNING = "Warning";
}
