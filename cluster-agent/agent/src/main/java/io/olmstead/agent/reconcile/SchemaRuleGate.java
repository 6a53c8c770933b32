package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.olmcore.lifecycle.CrdSchemaFinding;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvReason;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A subscription's {@code crdUpgradeSafety} applied when a bundle's CRDs are about to replace the
 * cluster's: {@code Strict} refuses the bundle on the first breaking schema finding ({@code
 * Failed/CrdSchemaUnsafe}, the message naming the finding), {@code Warn} lets it through and keeps
 * the findings for the subscription's status (condition {@code CrdSchemaWarnings}) while that
 * bundle is the one driven, {@code None} (the default) does neither.
 */
final class SchemaRuleGate {
  static final String CONDITION = "CrdSchemaWarnings";
  private static final int MAX_MESSAGE = 4000;

  private record Warnings(String bundle, SubscriptionStatus.StatusCondition condition) {}

  private final CrdSafety crdSafety;
  private final Map<String, Warnings> warnings = new ConcurrentHashMap<>();

  SchemaRuleGate(CrdSafety crdSafety) {
    this.crdSafety = crdSafety;
  }

  /** The refusal of {@code bundle} for {@code sub}, or empty when it may go on. */
  Optional<CsvStatus> review(SubscriptionToReconcile sub, String bundle, List<JsonNode> crds)
      throws ResourceException {
    PreflightRules.CrdUpgradeSafety safety =
        PreflightRules.CrdUpgradeSafety.parse(sub.crdUpgradeSafety());
    if (safety == PreflightRules.CrdUpgradeSafety.NONE) {
      warnings.remove(sub.name());
      return Optional.empty();
    }
    Map<String, List<CrdSchemaFinding>> found = crdSafety.schemaFindings(crds);
    if (safety == PreflightRules.CrdUpgradeSafety.STRICT) {
      for (Map.Entry<String, List<CrdSchemaFinding>> e : found.entrySet()) {
        Optional<String> refusal = PreflightRules.strictRefusal(e.getValue(), e.getKey());
        if (refusal.isPresent()) {
          return Optional.of(
              new CsvStatus(
                  CsvPhase.FAILED,
                  CsvReason.CRD_SCHEMA_UNSAFE,
                  "crdUpgradeSafety Strict refuses " + bundle + ": " + refusal.get()));
        }
      }
      return Optional.empty();
    }
    if (!found.isEmpty()) {
      List<String> lines = new ArrayList<>();
      found.forEach(
          (crd, list) ->
              list.forEach(
                  f -> lines.add(f.id() + ": " + crd + " " + f.path() + ": " + f.message())));
      String message = String.join("; ", lines);
      String reason = found.values().iterator().next().get(0).id();
      warnings.put(
          sub.name(),
          new Warnings(
              bundle,
              new SubscriptionStatus.StatusCondition(
                  CONDITION,
                  "True",
                  reason,
                  message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message)));
    }
    return Optional.empty();
  }

  /** The warnings kept for {@code subscription} while {@code bundle} is the bundle driven. */
  Optional<SubscriptionStatus.StatusCondition> warnings(String subscription, String bundle) {
    Warnings w = warnings.get(subscription);
    return w != null && w.bundle().equals(bundle) ? Optional.of(w.condition()) : Optional.empty();
  }
}
