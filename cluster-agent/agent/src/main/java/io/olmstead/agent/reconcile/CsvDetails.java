package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.installplan.CertPlan;
import io.olmstead.olmcore.installplan.ServingCert;
import io.olmstead.olmcore.lifecycle.Requirements.RequirementStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the agent reports besides the phase, as OLM's CSV status shows it: the requirements as last
 * checked (before the bundle is written), the CSV's webhooks, and each serving certificate's expiry
 * and rotation time. No key material.
 */
public record CsvDetails(
    List<RequirementStatus> requirements, List<Webhook> webhooks, List<Certificate> certificates) {
  public static final CsvDetails NONE = new CsvDetails(List.of(), List.of(), List.of());

  public CsvDetails {
    requirements = List.copyOf(requirements);
    webhooks = List.copyOf(webhooks);
    certificates = List.copyOf(certificates);
  }

  /** One entry of {@code spec.webhookdefinitions}. */
  public record Webhook(String type, String generateName, String deploymentName, String service) {}

  /** The serving certificate of one Service. */
  public record Certificate(String service, String secret, Instant expiresAt, Instant rotateAt) {}

  /** Only the requirements (a bundle refused before its certificates were made). */
  static CsvDetails requirementsOnly(List<RequirementStatus> requirements) {
    return new CsvDetails(requirements, List.of(), List.of());
  }

  /**
   * The webhooks of {@code csv} and the certificates of its Services, with {@code requirements} as
   * checked.
   */
  static CsvDetails of(
      Optional<JsonNode> csv,
      Map<String, ServingCert> certificates,
      List<RequirementStatus> requirements) {
    List<Webhook> webhooks = new ArrayList<>();
    csv.ifPresent(
        c ->
            c.path("spec")
                .path("webhookdefinitions")
                .forEach(
                    w -> {
                      String deployment = w.path("deploymentName").asText("");
                      webhooks.add(
                          new Webhook(
                              w.path("type").asText(""),
                              w.path("generateName").asText(""),
                              deployment,
                              deployment.isEmpty() ? null : CertPlan.serviceName(deployment)));
                    }));
    List<Certificate> certs = new ArrayList<>();
    certificates.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                certs.add(
                    new Certificate(
                        e.getKey(),
                        CertPlan.secretName(e.getKey()),
                        e.getValue().notAfter(),
                        e.getValue().rotateAt())));
    return new CsvDetails(requirements, webhooks, certs);
  }

  boolean isEmpty() {
    return requirements.isEmpty() && webhooks.isEmpty() && certificates.isEmpty();
  }
}
