package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What OLM's CSV status shows besides the phase: {@code status.requirementStatus}, the CSV's
 * webhooks and the serving certificates with their expiry ({@code certsLastUpdated}/{@code
 * certsRotateAt} per certificate). Optional in a status item; the schema bounds each list ({@link
 * #MAX_REQUIREMENTS}, {@link #MAX_WEBHOOKS}, {@link #MAX_CERTIFICATES}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CsvDetails(
    List<RequirementStatus> requirementStatus,
    List<WebhookStatus> webhooks,
    List<CertificateStatus> certificates) {
  public static final int MAX_REQUIREMENTS = 64;
  public static final int MAX_WEBHOOKS = 64;
  public static final int MAX_CERTIFICATES = 16;

  /**
   * One requirement as OLM lists it; {@code status} is Present, NotPresent, NotAvailable or
   * PresentNotSatisfied.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record RequirementStatus(
      String group, String version, String kind, String name, String status, String message) {}

  /**
   * One entry of the CSV's {@code spec.webhookdefinitions}: ValidatingAdmissionWebhook,
   * MutatingAdmissionWebhook or ConversionWebhook, served by {@code service} on {@code
   * deploymentName}'s pods.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record WebhookStatus(
      String type, String generateName, String deploymentName, String service) {}

  /**
   * The serving certificate of one Service: when it expires and when the agent replaces it (RFC
   * 3339 instants).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CertificateStatus(
      String service, String secret, String expiresAt, String rotateAt) {}
}
