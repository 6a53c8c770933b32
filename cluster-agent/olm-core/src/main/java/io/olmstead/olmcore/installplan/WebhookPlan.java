package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What OLM writes for a CSV's webhooks and APIServices ({@code install/webhook.go}, {@code
 * install/apiservice.go}): per deployment the {@link CertPlan} objects, a
 * Validating/MutatingWebhookConfiguration per admission webhook, the conversion set on each owned
 * CRD of a conversion webhook, and an APIService per owned API service. Every {@code caBundle} is
 * left for the agent to fill in ({@link ServingCertInjection}). Pure; checks everything before
 * planning anything, so a bad definition fails the plan with nothing written.
 */
final class WebhookPlan {
  /** OLM's label on a webhook configuration naming the webhook definition it came from. */
  static final String GENERATE_NAME_LABEL = "olm.webhook-description-generate-name";

  private static final String ADMISSION_API = "admissionregistration.k8s.io/v1";
  private static final String SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  /** The objects to add, or the failure (OLM reason and message). */
  record Result(List<ObjectNode> objects, String reason, String message) {
    boolean failed() {
      return reason != null;
    }
  }

  private WebhookPlan() {}

  /**
   * Plans for {@code csv}; {@code deployments} and {@code crds} (the planned ones) are changed in
   * place.
   */
  static Result plan(
      JsonNode csv,
      String namespace,
      List<String> targets,
      ObjectNode ownerLabels,
      List<JsonNode> deployments,
      List<JsonNode> crds) {
    Set<String> deploymentNames =
        deployments.stream()
            .map(d -> d.path("metadata").path("name").asText())
            .collect(Collectors.toSet());
    Set<String> crdNames =
        crds.stream()
            .map(c -> c.path("metadata").path("name").asText())
            .collect(Collectors.toSet());
    CertResources.Parsed parsed = check(csv, deploymentNames, crdNames);
    if (parsed.failed()) {
      return new Result(List.of(), parsed.problem().reason(), parsed.problem().message());
    }
    List<ObjectNode> out = new ArrayList<>();
    for (JsonNode deployment : deployments) {
      String name = deployment.path("metadata").path("name").asText();
      List<CertResources.CertResource> mine =
          parsed.resources().stream().filter(r -> r.deploymentName().equals(name)).toList();
      if (!mine.isEmpty()) {
        out.addAll(CertPlan.forDeployment((ObjectNode) deployment, mine, namespace, ownerLabels));
      }
    }
    for (CertResources.CertResource r : parsed.resources()) {
      switch (r.type()) {
        case VALIDATING, MUTATING ->
            out.add(webhookConfiguration(r, namespace, targets, ownerLabels));
        case CONVERSION ->
            crds.stream()
                .filter(crd -> converted(r, crd))
                .forEach(crd -> setConversion((ObjectNode) crd, r, namespace));
        case API_SERVICE -> out.add(apiService(r, namespace, ownerLabels));
      }
    }
    return new Result(List.copyOf(out), null, null);
  }

  /**
   * OLM's name for a configuration made from {@code generateName}: the prefix and a suffix (stable
   * here).
   */
  static String configurationName(String generateName, String namespace) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((namespace + "/" + generateName).getBytes(StandardCharsets.UTF_8));
      StringBuilder suffix = new StringBuilder();
      for (int i = 0; i < 5; i++) {
        suffix.append(SUFFIX_ALPHABET.charAt((digest[i] & 0xff) % SUFFIX_ALPHABET.length()));
      }
      return generateName + "-" + suffix;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  /**
   * Every check planning makes on the CSV's webhook and API service definitions, given the names of
   * the CSV's deployments and of the CRDs in the bundle: the definitions, or the first problem.
   */
  static CertResources.Parsed check(
      JsonNode csv, Set<String> deploymentNames, Set<String> shippedCrds) {
    CertResources.Parsed parsed = CertResources.read(csv, deploymentNames);
    if (parsed.failed()) {
      return parsed;
    }
    WebhookDefinitions.Problem conversionProblem =
        checkConversions(csv, parsed.resources(), shippedCrds);
    return conversionProblem == null
        ? parsed
        : new CertResources.Parsed(List.of(), conversionProblem);
  }

  private static WebhookDefinitions.Problem checkConversions(
      JsonNode csv, List<CertResources.CertResource> resources, Set<String> shipped) {
    Set<String> owned = new HashSet<>();
    csv.path("spec")
        .path("customresourcedefinitions")
        .path("owned")
        .forEach(o -> owned.add(o.path("name").asText()));
    for (CertResources.CertResource r : resources) {
      if (r.type() != CertResources.Type.CONVERSION) {
        continue;
      }
      if (!CertResources.supportsOnlyAllNamespaces(csv)) {
        return new WebhookDefinitions.Problem(
            InstallPlanResult.REASON_UNSUPPORTED_OPERATOR_GROUP,
            "spec.installModes",
            CertResources.CONVERSION_ONLY_ALL_NAMESPACES
                + " (webhook definition "
                + r.name()
                + ", "
                + r.field()
                + ")");
      }
      JsonNode crds = r.source().path("conversionCRDs");
      for (int j = 0; j < crds.size(); j++) {
        String crd = crds.get(j).asText();
        String field = r.field() + ".conversionCRDs[" + j + "]";
        if (!owned.contains(crd)) {
          return new WebhookDefinitions.Problem(
              InstallPlanResult.REASON_INVALID_INSTALL_STRATEGY,
              field,
              field
                  + ": CSV "
                  + csv.path("metadata").path("name").asText()
                  + " does not own CRD "
                  + crd);
        }
        if (!shipped.contains(crd)) {
          return new WebhookDefinitions.Problem(
              InstallPlanResult.REASON_INVALID_INSTALL_STRATEGY,
              field,
              field + ": CRD " + crd + " is not in the bundle");
        }
      }
    }
    return null;
  }

  private static boolean converted(CertResources.CertResource r, JsonNode crd) {
    String name = crd.path("metadata").path("name").asText();
    for (JsonNode c : r.source().path("conversionCRDs")) {
      if (c.asText().equals(name)) {
        return true;
      }
    }
    return false;
  }

  private static ObjectNode webhookConfiguration(
      CertResources.CertResource r,
      String namespace,
      List<String> targets,
      ObjectNode ownerLabels) {
    boolean mutating = r.type() == CertResources.Type.MUTATING;
    ObjectNode labels = ownerLabels.deepCopy();
    if (r.name().length() <= 63) {
      labels.put(GENERATE_NAME_LABEL, r.name());
    }
    ObjectNode config =
        CertPlan.object(
            ADMISSION_API,
            mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration",
            configurationName(r.name(), namespace),
            null,
            labels);
    JsonNode source = r.source();
    ObjectNode webhook = config.putArray("webhooks").addObject().put("name", r.name());
    copy(source, webhook, "rules", "failurePolicy", "matchPolicy");
    namespaceSelector(targets, webhook);
    copy(
        source,
        webhook,
        "objectSelector",
        "sideEffects",
        "timeoutSeconds",
        "admissionReviewVersions");
    if (mutating) {
      copy(source, webhook, "reinvocationPolicy");
    }
    webhook.putObject("clientConfig").set("service", serviceReference(r, namespace));
    return config;
  }

  /**
   * OLM uses the operator group's namespace selector: none for AllNamespaces, else its target
   * namespaces.
   */
  private static void namespaceSelector(List<String> targets, ObjectNode webhook) {
    List<String> named = targets.stream().filter(t -> t != null && !t.isEmpty()).toList();
    if (named.isEmpty()) {
      return;
    }
    ObjectNode expression =
        webhook
            .putObject("namespaceSelector")
            .putArray("matchExpressions")
            .addObject()
            .put("key", "kubernetes.io/metadata.name")
            .put("operator", "In");
    named.forEach(expression.putArray("values")::add);
  }

  private static void setConversion(
      ObjectNode crd, CertResources.CertResource r, String namespace) {
    ObjectNode spec = crd.withObjectProperty("spec");
    spec.put("preserveUnknownFields", false);
    ObjectNode webhook =
        spec.putObject("conversion").put("strategy", "Webhook").putObject("webhook");
    webhook.set("conversionReviewVersions", r.source().path("admissionReviewVersions").deepCopy());
    webhook.putObject("clientConfig").set("service", serviceReference(r, namespace));
  }

  private static ObjectNode apiService(
      CertResources.CertResource r, String namespace, ObjectNode ownerLabels) {
    ObjectNode api =
        CertPlan.object("apiregistration.k8s.io/v1", "APIService", r.name(), null, ownerLabels);
    ObjectNode spec = api.putObject("spec");
    spec.putObject("service")
        .put("name", r.serviceName())
        .put("namespace", namespace)
        .put("port", r.containerPort());
    spec.put("group", r.source().path("group").asText())
        .put("version", r.source().path("version").asText())
        .put("groupPriorityMinimum", 2000)
        .put("versionPriority", 15);
    return api;
  }

  private static ObjectNode serviceReference(CertResources.CertResource r, String namespace) {
    ObjectNode service =
        JsonNodeFactory.instance
            .objectNode()
            .put("namespace", namespace)
            .put("name", r.serviceName());
    JsonNode path = r.source().path("webhookPath");
    if (path.isTextual()) {
      service.put("path", path.asText());
    }
    return service.put("port", r.containerPort());
  }

  private static void copy(JsonNode from, ObjectNode to, String... fields) {
    for (String field : fields) {
      JsonNode value = from.path(field);
      if (!value.isMissingNode() && !value.isNull()) {
        to.set(field, value.deepCopy());
      }
    }
  }
}
