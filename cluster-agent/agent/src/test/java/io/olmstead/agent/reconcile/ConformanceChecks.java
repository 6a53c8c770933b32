package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.reconcile.ConformanceRules.Mode;
import java.util.List;
import java.util.Optional;

/**
 * Reads one install of {@link OlmConformanceIT} back through the Kubernetes API and adds to {@code
 * findings} every way it differs from OLM's rules ({@link ConformanceRules}).
 */
final class ConformanceChecks {
  static final String ADMISSION = "admissionregistration.k8s.io/v1";
  private static final String RBAC = "rbac.authorization.k8s.io/v1";
  private static final String NS = ConformanceRules.OPERATOR_NAMESPACE;

  private final PassDriver driver;
  private final String subscription;
  private final List<String> findings;

  ConformanceChecks(PassDriver driver, String subscription, List<String> findings) {
    this.driver = driver;
    this.subscription = subscription;
    this.findings = findings;
  }

  /**
   * Passes until {@code sub} runs {@code bundle} Succeeded (at most 20 passes); false, with a
   * finding, if never.
   */
  boolean installs(SubscriptionToReconcile sub, String bundle) throws Exception {
    for (int i = 0; i < 20; i++) {
      driver.pass(NS, sub);
      Optional<SubscriptionStatus> s = driver.sink.latest(sub.name());
      if (s.isPresent()
          && bundle.equals(s.get().installedBundle())
          && "Succeeded".equals(s.get().phase())) {
        if (driver.sink.history(sub.name()).stream()
            .anyMatch(h -> "OwnershipConflict".equals(h.reason()))) {
          findings.add("OwnershipConflict on the way");
        }
        return true;
      }
    }
    findings.add(
        bundle
            + " never Succeeded: "
            + driver.sink.latest(sub.name()).map(SubscriptionStatus::message).orElse("no status"));
    return false;
  }

  void installedAsOlmDoes(JsonNode csv, Mode mode) throws Exception {
    for (JsonNode d : csv.path("spec").path("install").path("spec").path("deployments")) {
      String annotation =
          driver
              .get("apps/v1", "Deployment", NS, d.path("name").asText())
              .map(
                  o ->
                      o.path("spec")
                          .path("template")
                          .path("metadata")
                          .path("annotations")
                          .path("olm.targetNamespaces")
                          .asText(null))
              .orElse(null);
      expect(
          mode.annotation().equals(annotation),
          "Deployment " + d.path("name").asText() + " olm.targetNamespaces=" + annotation);
    }
    for (JsonNode permission : ConformanceRules.permissions(csv)) {
      permission(permission.path("rules"), mode);
    }
    for (String role : ConformanceRules.aggregatedRoles(csv)) {
      expect(
          driver.get(RBAC, "ClusterRole", null, role).isPresent(),
          "no aggregated ClusterRole " + role);
    }
    String csvName = csv.path("metadata").path("name").asText();
    Optional<JsonNode> ocRole = driver.get(RBAC, "Role", NS, csvName);
    expect(
        ocRole
            .map(r -> r.path("rules").path(0).path("resources").path(0).asText())
            .orElse("")
            .equals("operatorconditions"),
        "no OperatorCondition Role " + csvName);
    expect(
        driver.get(RBAC, "RoleBinding", NS, csvName).isPresent(),
        "no OperatorCondition RoleBinding");
    webhooks(csv, "ValidatingAdmissionWebhook", "ValidatingWebhookConfiguration");
    webhooks(csv, "MutatingAdmissionWebhook", "MutatingWebhookConfiguration");
    for (JsonNode conversion : ConformanceRules.webhooks(csv, "ConversionWebhook")) {
      for (JsonNode crd : conversion.path("conversionCRDs")) {
        String strategy =
            driver
                .get(CrdWrites.CRD_API, CrdWrites.CRD_KIND, null, crd.asText())
                .map(c -> c.path("spec").path("conversion").path("strategy").asText())
                .orElse("absent");
        expect("Webhook".equals(strategy), "CRD " + crd.asText() + " conversion " + strategy);
      }
    }
  }

  /**
   * The Role of one {@code permissions} entry, lifted (AllNamespaces) or copied into each target
   * (Single/Multi).
   */
  private void permission(JsonNode rules, Mode mode) throws Exception {
    Optional<JsonNode> role =
        owned(RBAC, "Role").stream()
            .filter(
                r ->
                    NS.equals(r.path("metadata").path("namespace").asText())
                        && rules.equals(r.path("rules")))
            .findFirst();
    if (role.isEmpty()) {
      findings.add("no Role in " + NS + " with the rules of a permissions entry");
      return;
    }
    String name = role.get().path("metadata").path("name").asText();
    Optional<JsonNode> lifted = driver.get(RBAC, "ClusterRole", null, name);
    if (mode == Mode.AllNamespaces) {
      expect(
          lifted
              .map(c -> c.path("rules").equals(ConformanceRules.liftedRules(rules)))
              .orElse(false),
          "Role " + name + " not lifted to a ClusterRole reading namespaces");
      expect(
          driver.list(RBAC, "ClusterRoleBinding").stream()
              .anyMatch(b -> name.equals(b.path("roleRef").path("name").asText())),
          "no ClusterRoleBinding of " + name);
    } else {
      expect(lifted.isEmpty(), "Role " + name + " lifted in " + mode);
    }
    for (String tenant : mode.tenants()) {
      expect(
          driver
              .get(RBAC, "Role", tenant, name)
              .map(r -> rules.equals(r.path("rules")))
              .orElse(false),
          "no tenant Role " + tenant + "/" + name);
      expect(
          driver.list(RBAC, "RoleBinding").stream()
              .anyMatch(
                  b ->
                      tenant.equals(b.path("metadata").path("namespace").asText())
                          && name.equals(b.path("roleRef").path("name").asText())),
          "no tenant RoleBinding in " + tenant);
    }
  }

  private void webhooks(JsonNode csv, String type, String kind) throws Exception {
    List<JsonNode> configs = owned(ADMISSION, kind);
    int expected = ConformanceRules.webhooks(csv, type).size();
    expect(configs.size() == expected, kind + ": " + configs.size() + ", CSV defines " + expected);
    for (JsonNode config : configs) {
      JsonNode client = config.path("webhooks").path(0).path("clientConfig");
      String service = client.path("service").path("name").asText();
      expect(driver.get("v1", "Service", NS, service).isPresent(), "no Service " + service);
      Optional<JsonNode> secret = driver.get("v1", "Secret", NS, service + "-cert");
      if (secret.isEmpty()) {
        findings.add("no Secret " + service + "-cert");
        continue;
      }
      try {
        WebhookInstallIT.assertChainValid(
            OlmConformanceIT.decode(client.path("caBundle").asText()),
            OlmConformanceIT.decode(secret.get().path("data").path("tls.crt").asText()),
            service + "." + NS + ".svc");
      } catch (Exception | AssertionError e) {
        findings.add(
            config.path("metadata").path("name").asText()
                + " caBundle does not verify: "
                + e.getMessage());
      }
    }
  }

  /** After an upgrade, every webhook configuration of the subscription is the new bundle's. */
  void noStaleWebhookConfigurations(String bundle) throws Exception {
    for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
      for (JsonNode config : owned(ADMISSION, kind)) {
        expect(
            ManagedLabels.value(bundle)
                .equals(OlmConformanceIT.label(config, ManagedLabels.BUNDLE)),
            "stale " + kind + " " + config.path("metadata").path("name").asText());
      }
    }
  }

  /** Uninstalls (a pass without the subscription) and checks nothing of it is left. */
  void uninstalls(JsonNode csv) throws Exception {
    driver.pass(NS);
    for (ResourceKinds.Kind kind : OlmConformanceIT.labelledKinds()) {
      for (JsonNode left : owned(kind.apiVersion(), kind.kind())) {
        findings.add(
            "left after uninstall: "
                + kind.kind()
                + " "
                + left.path("metadata").path("name").asText());
      }
    }
    for (String role : ConformanceRules.aggregatedRoles(csv)) {
      expect(
          driver.get(RBAC, "ClusterRole", null, role).isEmpty(),
          "left after uninstall: ClusterRole " + role);
    }
    driver.list("v1", "Secret").stream()
        .filter(s -> s.path("metadata").path("name").asText().endsWith("-service-cert"))
        .forEach(
            s ->
                findings.add(
                    "left after uninstall: Secret " + s.path("metadata").path("name").asText()));
  }

  private List<JsonNode> owned(String apiVersion, String kind) throws Exception {
    return driver.list(apiVersion, kind).stream()
        .filter(o -> OlmConformanceIT.ownedBy(o, subscription))
        .toList();
  }

  private void expect(boolean holds, String finding) {
    if (!holds) {
      findings.add(finding);
    }
  }
}
