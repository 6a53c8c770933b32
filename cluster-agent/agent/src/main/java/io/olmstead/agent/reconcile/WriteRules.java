package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.ResourceOperator;
import java.util.Map;
import java.util.Optional;

/**
 * What one drive of one bundle may write: never an object another live subscription of the cluster
 * owns (two subscriptions for one operator would otherwise rewrite each other's objects for ever),
 * and a drift restore only when {@link RestoreBackoff} allows it. The first ownership conflict met
 * is kept for the report.
 */
final class WriteRules {
  private final String mine;
  private final Map<String, String> others;
  private final RestoreBackoff backoff;
  private volatile String conflict;

  /**
   * @param subscription the subscription being driven
   * @param others the other live subscriptions (desired, implied or installed) by their label value
   * @param backoff the restore limiter when every object was applied before (a write restores
   *     drift), else null
   */
  WriteRules(String subscription, Map<String, String> others, RestoreBackoff backoff) {
    this.mine = ManagedLabels.value(subscription);
    this.others = others;
    this.backoff = backoff;
  }

  /**
   * The words every ownership refusal uses; the owner itself is never named (it may be another
   * team's).
   */
  static final String OWNED_BY_ANOTHER = "is owned by another subscription on this cluster";

  /** Refuses a change to an object labelled for another live subscription. */
  ResourceOperator.Guard ownership() {
    return existing ->
        owner(existing)
            .map(
                owner -> {
                  // the owner is not named: it may belong to a team the reader of this status
                  // cannot see
                  String message = describe(existing) + " " + OWNED_BY_ANOTHER;
                  if (conflict == null) {
                    conflict = message;
                  }
                  return message;
                });
  }

  /** The drift limiter, or null when writes are part of an install (not restores). */
  ResourceOperator.Gate gate() {
    return backoff == null ? null : backoff::permit;
  }

  /** The first ownership conflict met, or null. */
  String conflict() {
    return conflict;
  }

  private Optional<String> owner(JsonNode existing) {
    JsonNode labels = existing.path("metadata").path("labels");
    if (!ManagedLabels.MANAGED_BY_VALUE.equals(labels.path(ManagedLabels.MANAGED_BY).asText())) {
      return Optional.empty();
    }
    String owner = labels.path(ManagedLabels.SUBSCRIPTION).asText("");
    return owner.isEmpty() || owner.equals(mine)
        ? Optional.empty()
        : Optional.ofNullable(others.get(owner));
  }

  private static String describe(JsonNode object) {
    String ns = object.path("metadata").path("namespace").asText("");
    return object.path("kind").asText()
        + " "
        + (ns.isEmpty() ? "" : ns + "/")
        + object.path("metadata").path("name").asText();
  }
}
