package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CSV's {@code webhookdefinitions[]} and {@code apiservicedefinitions.owned[]} read and
 * checked: every entry that needs a serving certificate (OLM's "cert resources"), or the first
 * problem with the field it is in.
 */
final class CertResources {
  /** What a cert resource becomes in the cluster. */
  enum Type {
    VALIDATING,
    MUTATING,
    CONVERSION,
    API_SERVICE
  }

  /**
   * One entry: {@code name} is the webhook's generateName or the APIService's name; {@code
   * targetPort} is an int or a port name (JSON as in the CSV); {@code source} the entry itself.
   */
  record CertResource(
      Type type,
      String name,
      String deploymentName,
      int containerPort,
      JsonNode targetPort,
      JsonNode source,
      String field) {
    /** OLM's service for the deployment: {@code <deploymentName with . as ->-service}. */
    String serviceName() {
      return CertPlan.serviceName(deploymentName);
    }
  }

  /** Either the resources or the problem (OLM reason, the field, a message naming the field). */
  record Parsed(List<CertResource> resources, WebhookDefinitions.Problem problem) {
    boolean failed() {
      return problem != null;
    }
  }

  static final String CONVERSION_ONLY_ALL_NAMESPACES =
      "CSVs with conversion webhooks must support only AllNamespaces";
  private static final int DEFAULT_PORT = 443;

  private CertResources() {}

  static Parsed read(JsonNode csv, Set<String> deploymentNames) {
    List<CertResource> out = new ArrayList<>();
    Set<String> generateNames = new HashSet<>();
    JsonNode webhooks = csv.path("spec").path("webhookdefinitions");
    JsonNode owned = csv.path("spec").path("apiservicedefinitions").path("owned");
    Parsed tooMany = overLimit(webhooks, "spec.webhookdefinitions");
    if (tooMany == null) {
      tooMany = overLimit(owned, "spec.apiservicedefinitions.owned");
    }
    if (tooMany != null) {
      return tooMany;
    }
    for (int i = 0; i < webhooks.size(); i++) {
      JsonNode w = webhooks.get(i);
      String field = "spec.webhookdefinitions[" + i + "]";
      Type type =
          switch (w.path("type").asText("")) {
            case "ValidatingAdmissionWebhook" -> Type.VALIDATING;
            case "MutatingAdmissionWebhook" -> Type.MUTATING;
            case "ConversionWebhook" -> Type.CONVERSION;
            default -> null;
          };
      if (type == null) {
        return invalid(
            field + ".type",
            field
                + ".type \""
                + w.path("type").asText("")
                + "\" is not ValidatingAdmissionWebhook, "
                + "MutatingAdmissionWebhook or ConversionWebhook");
      }
      String generateName = w.path("generateName").asText("");
      if (generateName.isEmpty()) {
        return invalid(field + ".generateName", field + ".generateName is empty");
      }
      if (!generateNames.add(generateName)) {
        return invalid(
            field + ".generateName",
            field + ".generateName \"" + generateName + "\" is used by another webhook definition");
      }
      Parsed problem = checkCommon(w, field, deploymentNames);
      if (problem != null) {
        return problem;
      }
      if (type == Type.CONVERSION && !w.path("conversionCRDs").elements().hasNext()) {
        return invalid(
            field + ".conversionCRDs",
            field + ".conversionCRDs is empty: a conversion webhook names the CRDs it converts");
      }
      out.add(
          new CertResource(
              type,
              generateName,
              w.path("deploymentName").asText(),
              port(w),
              targetPort(w),
              w,
              field));
    }
    for (int i = 0; i < owned.size(); i++) {
      JsonNode a = owned.get(i);
      String field = "spec.apiservicedefinitions.owned[" + i + "]";
      if (a.path("group").asText("").isEmpty() || a.path("version").asText("").isEmpty()) {
        return invalid(field, field + " needs a group and a version");
      }
      Parsed problem = checkCommon(a, field, deploymentNames);
      if (problem != null) {
        return problem;
      }
      String name = a.path("version").asText() + "." + a.path("group").asText();
      out.add(
          new CertResource(
              Type.API_SERVICE,
              name,
              a.path("deploymentName").asText(),
              port(a),
              IntNode.valueOf(port(a)),
              a,
              field));
    }
    Parsed collision = serviceCollision(out);
    return collision != null ? collision : new Parsed(List.copyOf(out), null);
  }

  private static Parsed overLimit(JsonNode definitions, String field) {
    if (definitions.size() <= WebhookDefinitions.MAX_DEFINITIONS) {
      return null;
    }
    return invalid(
        field,
        field
            + " has "
            + definitions.size()
            + " entries, over the limit of "
            + WebhookDefinitions.MAX_DEFINITIONS);
  }

  /**
   * Two deployments whose names differ only by '.' against '-' get one Service (and one certificate
   * Secret): the second would silently replace the first, so planning fails naming both.
   */
  private static Parsed serviceCollision(List<CertResource> resources) {
    Map<String, CertResource> byService = new HashMap<>();
    for (CertResource r : resources) {
      CertResource first = byService.putIfAbsent(r.serviceName(), r);
      if (first != null && !first.deploymentName().equals(r.deploymentName())) {
        return invalid(
            r.field() + ".deploymentName",
            r.field()
                + ".deploymentName \""
                + r.deploymentName()
                + "\" and "
                + first.field()
                + ".deploymentName \""
                + first.deploymentName()
                + "\" both become Service \""
                + r.serviceName()
                + "\"");
      }
    }
    return null;
  }

  /** OLM's rule: a CSV with a conversion webhook supports AllNamespaces and no other mode. */
  static boolean supportsOnlyAllNamespaces(JsonNode csv) {
    boolean all = false;
    for (JsonNode mode : csv.path("spec").path("installModes")) {
      boolean supported = mode.path("supported").asBoolean(false);
      if ("AllNamespaces".equals(mode.path("type").asText())) {
        all = supported;
      } else if (supported) {
        return false;
      }
    }
    return all;
  }

  private static Parsed checkCommon(JsonNode entry, String field, Set<String> deploymentNames) {
    String deployment = entry.path("deploymentName").asText("");
    if (!deploymentNames.contains(deployment)) {
      return invalid(
          field + ".deploymentName",
          field
              + ".deploymentName \""
              + deployment
              + "\" names no deployment of spec.install.spec.deployments");
    }
    JsonNode containerPort = entry.path("containerPort");
    if (!containerPort.isMissingNode()
        && !containerPort.isNull()
        && (!containerPort.canConvertToInt() || !inRange(containerPort.asInt()))) {
      return invalid(
          field + ".containerPort",
          field + ".containerPort " + containerPort + " is out of range 1-65535");
    }
    JsonNode targetPort = entry.path("targetPort");
    if (targetPort.isNumber() && !inRange(targetPort.asInt())) {
      return invalid(
          field + ".targetPort", field + ".targetPort " + targetPort + " is out of range 1-65535");
    }
    if (targetPort.isTextual()
        && !targetPort.asText().matches("[a-z0-9]([-a-z0-9]{0,13}[a-z0-9])?")) {
      return invalid(
          field + ".targetPort",
          field + ".targetPort \"" + targetPort.asText() + "\" is not a port name");
    }
    return null;
  }

  private static boolean inRange(int port) {
    return port >= 1 && port <= 65535;
  }

  private static int port(JsonNode entry) {
    int port = entry.path("containerPort").asInt(0);
    return port > 0 ? port : DEFAULT_PORT;
  }

  /** OLM: the targetPort when the CSV sets one, else the containerPort. */
  private static JsonNode targetPort(JsonNode entry) {
    JsonNode target = entry.path("targetPort");
    return target.isNumber() || target.isTextual()
        ? target.deepCopy()
        : IntNode.valueOf(port(entry));
  }

  private static Parsed invalid(String field, String message) {
    return new Parsed(
        List.of(),
        new WebhookDefinitions.Problem(
            InstallPlanResult.REASON_INVALID_INSTALL_STRATEGY, field, message));
  }
}
