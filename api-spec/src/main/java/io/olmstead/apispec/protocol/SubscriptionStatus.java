package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The observed state of one subscription in one cluster; {@code phase} follows OLM's CSV phases.
 * {@code csv} (optional: agents that predate it leave it out) carries the requirement status,
 * webhooks and certificates.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubscriptionStatus(
    String name,
    String installedBundle,
    String installedVersion,
    String targetVersion,
    String phase,
    String reason,
    String message,
    List<Condition> conditions,
    Long observedGeneration,
    CsvDetails csv) {

  /** A status without CSV details. */
  public SubscriptionStatus(
      String name,
      String installedBundle,
      String installedVersion,
      String targetVersion,
      String phase,
      String reason,
      String message,
      List<Condition> conditions,
      Long observedGeneration) {
    this(
        name,
        installedBundle,
        installedVersion,
        targetVersion,
        phase,
        reason,
        message,
        conditions,
        observedGeneration,
        null);
  }
}
