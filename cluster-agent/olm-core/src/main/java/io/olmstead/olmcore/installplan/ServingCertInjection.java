package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Puts serving certificates into a plan: each certificate Secret gets {@code tls.crt}, {@code
 * tls.key} and {@code olmCAKey}; each webhook configuration, conversion and APIService pointing at
 * the Service gets the CA as {@code caBundle}; the deployment's pod template gets {@code olmcahash}
 * (a new CA rolls the pods, as in OLM). Pure: changed objects are copies, the others are returned
 * as they were.
 */
public final class ServingCertInjection {
  private ServingCertInjection() {}

  /**
   * The Services whose certificate a plan needs, read from the Secrets {@link CertPlan} planned.
   */
  public static List<String> services(List<JsonNode> objects) {
    List<String> services = new ArrayList<>();
    for (JsonNode o : objects) {
      String service =
          o.path("metadata").path("annotations").path(CertPlan.SERVING_CERT_FOR).asText("");
      // only CertPlan's own Secret of the Service (<service>-cert) is filled, never a Secret named
      // otherwise
      if ("Secret".equals(o.path("kind").asText())
          && !service.isEmpty()
          && CertPlan.secretName(service).equals(o.path("metadata").path("name").asText())) {
        services.add(service);
      }
    }
    return services;
  }

  /** {@code objects} with the certificates of {@code certs} (by Service name) filled in. */
  public static List<JsonNode> inject(List<JsonNode> objects, Map<String, ServingCert> certs) {
    List<JsonNode> out = new ArrayList<>(objects.size());
    for (JsonNode object : objects) {
      if (!touched(object)) {
        out.add(object); // nothing to fill in: no copy (a bundle's CRDs can be megabytes)
        continue;
      }
      ObjectNode copy = object.deepCopy();
      switch (copy.path("kind").asText()) {
        case "Secret" -> fillSecret(copy, certs);
        case "Deployment" -> annotateTemplate(copy, certs);
        case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration" -> {
          for (JsonNode webhook : copy.path("webhooks")) {
            caBundle((ObjectNode) webhook.path("clientConfig"), certs);
          }
        }
        case "CustomResourceDefinition" -> {
          JsonNode clientConfig =
              copy.path("spec").path("conversion").path("webhook").path("clientConfig");
          if (clientConfig.isObject()) {
            caBundle((ObjectNode) clientConfig, certs);
          }
        }
        case "APIService" -> caBundle((ObjectNode) copy.path("spec"), certs);
        default -> {}
      }
      out.add(copy);
    }
    return out;
  }

  private static boolean touched(JsonNode object) {
    return switch (object.path("kind").asText()) {
      case "Secret",
          "Deployment",
          "ValidatingWebhookConfiguration",
          "MutatingWebhookConfiguration",
          "APIService" ->
          true;
      case "CustomResourceDefinition" ->
          object.path("spec").path("conversion").path("webhook").isObject();
      default -> false;
    };
  }

  /** Hex SHA-256 of the CA PEM, OLM's {@code olmcahash}. */
  public static String caHash(String caPem) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(caPem.getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  private static void fillSecret(ObjectNode secret, Map<String, ServingCert> certs) {
    String service =
        secret.path("metadata").path("annotations").path(CertPlan.SERVING_CERT_FOR).asText("");
    ServingCert cert = certs.get(service);
    if (cert == null
        || !CertPlan.secretName(service).equals(secret.path("metadata").path("name").asText())) {
      return;
    }
    secret
        .putObject("data")
        .put("tls.crt", base64(cert.certPem()))
        .put("tls.key", base64(cert.keyPem()))
        .put(CertPlan.CA_PEM_KEY, base64(cert.caPem()));
    secret
        .withObjectProperty("metadata")
        .withObjectProperty("annotations")
        .put(CertPlan.CA_HASH_ANNOTATION, caHash(cert.caPem()));
  }

  private static void annotateTemplate(ObjectNode deployment, Map<String, ServingCert> certs) {
    ServingCert cert =
        certs.get(CertPlan.serviceName(deployment.path("metadata").path("name").asText()));
    if (cert != null) {
      deployment
          .withObjectProperty("spec")
          .withObjectProperty("template")
          .withObjectProperty("metadata")
          .withObjectProperty("annotations")
          .put(CertPlan.CA_HASH_ANNOTATION, caHash(cert.caPem()));
    }
  }

  /**
   * Sets {@code caBundle} beside a {@code service} reference when that Service has a certificate.
   */
  private static void caBundle(ObjectNode holder, Map<String, ServingCert> certs) {
    ServingCert cert = certs.get(holder.path("service").path("name").asText(""));
    if (cert != null) {
      holder.put("caBundle", base64(cert.caPem()));
    }
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
