package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The checks that planning makes on a CSV's {@code webhookdefinitions[]} and {@code
 * apiservicedefinitions.owned[]}, for callers that plan nothing (the control plane's strict catalog
 * validation): a bundle refused here fails its install with the same reason and message. Pure;
 * never throws.
 */
public final class WebhookDefinitions {
  /** At most this many webhook definitions, and as many owned API services, per CSV. */
  public static final int MAX_DEFINITIONS = 64;

  /**
   * What is wrong: OLM's reason, the field (e.g. {@code
   * spec.webhookdefinitions[2].deploymentName}), a message.
   */
  public record Problem(String reason, String field, String message) {}

  private WebhookDefinitions() {}

  /**
   * The first problem of the bundle's CSV (the first {@code ClusterServiceVersion} of {@code
   * manifests}), if any.
   */
  public static Optional<Problem> check(List<JsonNode> manifests) {
    JsonNode csv = null;
    Set<String> crds = new HashSet<>();
    for (JsonNode manifest : manifests) {
      String kind = manifest == null ? "" : manifest.path("kind").asText();
      if (csv == null && "ClusterServiceVersion".equals(kind)) {
        csv = manifest;
      } else if ("CustomResourceDefinition".equals(kind)) {
        crds.add(manifest.path("metadata").path("name").asText());
      }
    }
    if (csv == null) {
      return Optional.empty();
    }
    Set<String> deployments = new HashSet<>();
    csv.path("spec")
        .path("install")
        .path("spec")
        .path("deployments")
        .forEach(d -> deployments.add(d.path("name").asText()));
    try {
      return Optional.ofNullable(WebhookPlan.check(csv, deployments, crds).problem());
    } catch (RuntimeException e) {
      return Optional.of(
          new Problem(
              InstallPlanResult.REASON_INVALID_INSTALL_STRATEGY,
              "spec",
              "install strategy invalid: " + e));
    }
  }
}
