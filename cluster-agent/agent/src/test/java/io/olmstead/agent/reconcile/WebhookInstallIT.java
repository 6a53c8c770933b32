package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.testing.PlusCatalogs;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import io.olmstead.agent.testing.TestCrds;
import io.olmstead.olmcore.installplan.CertRotation;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real bundles with webhooks installed on a mock API server: what OLM would write is read back
 * through the Kubernetes API, and the serving certificate is checked against the caBundle the API
 * server would use.
 */
class WebhookInstallIT {
  private static final Duration WAIT = Duration.ofSeconds(40);
  private static final String ADMISSION = "admissionregistration.k8s.io/v1";
  private static final String RBAC = "rbac.authorization.k8s.io/v1";
  private SimFixture sim;

  @BeforeEach
  void start() throws Exception {
    sim =
        new SimFixture(
            PlusCatalogs.provider(), false, Duration.ofSeconds(1), Duration.ofMillis(200));
  }

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void theTopologyOperatorGetsItsServiceCertificateAndThirteenValidatingWebhooksTrustingOneCa()
      throws Exception {
    sim.desire(topology("1.19.3"));
    awaitSucceeded("topology", "rabbitmq-messaging-topology-operator.v1.19.3");

    JsonNode service =
        sim.get("v1", "Service", "rmq", "messaging-topology-operator-service").orElseThrow();
    assertThat(service.path("spec").path("ports").get(0).path("port").asInt()).isEqualTo(443);
    assertThat(service.path("spec").path("ports").get(0).path("targetPort").asInt())
        .isEqualTo(9443);
    JsonNode secret =
        sim.get("v1", "Secret", "rmq", "messaging-topology-operator-service-cert").orElseThrow();
    assertThat(secret.path("data").has("tls.key")).isTrue();
    String ca = decode(secret.path("data").path("olmCAKey").asText());
    List<JsonNode> configs = owned(ADMISSION, "ValidatingWebhookConfiguration", "topology");
    assertThat(configs).hasSize(13);
    for (JsonNode config : configs) {
      JsonNode clientConfig = config.path("webhooks").get(0).path("clientConfig");
      assertThat(decode(clientConfig.path("caBundle").asText())).isEqualTo(ca);
      assertThat(clientConfig.path("service").path("name").asText())
          .isEqualTo("messaging-topology-operator-service");
    }
    assertChainValid(
        ca,
        decode(secret.path("data").path("tls.crt").asText()),
        "messaging-topology-operator-service.rmq.svc");

    JsonNode pod =
        sim.get("apps/v1", "Deployment", "rmq", "messaging-topology-operator")
            .orElseThrow()
            .path("spec")
            .path("template")
            .path("spec");
    List<String> mounts = new ArrayList<>();
    pod.path("containers")
        .get(0)
        .path("volumeMounts")
        .forEach(m -> mounts.add(m.path("name").asText() + "@" + m.path("mountPath").asText()));
    assertThat(mounts)
        .contains(
            "webhook-cert@/tmp/k8s-webhook-server/serving-certs",
            "apiservice-cert@/apiserver.local.config/certificates")
        .doesNotContain("cert@/tmp/k8s-webhook-server/serving-certs");
  }

  @Test
  void anUpgradeRemovesTheWebhookConfigurationTheNewBundleNoLongerHasAndUninstallRemovesTheRest() {
    sim.desire(topology("1.18.2"));
    awaitSucceeded("topology", "rabbitmq-messaging-topology-operator.v1.18.2");
    assertThat(generateNames("topology"))
        .contains("vbinding.kb.io")
        .doesNotContain("vbinding-v1beta1.kb.io");

    sim.desire(topology("1.19.2"));
    awaitSucceeded("topology", "rabbitmq-messaging-topology-operator.v1.19.2");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(generateNames("topology"))
                    .contains("vbinding-v1beta1.kb.io")
                    .doesNotContain("vbinding.kb.io")
                    .hasSize(13));

    sim.desire();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(sim.list(ADMISSION, "ValidatingWebhookConfiguration")).isEmpty();
              assertThat(sim.get("v1", "Secret", "rmq", "messaging-topology-operator-service-cert"))
                  .isEmpty();
            });
  }

  @Test
  void keplerGetsAConversionWebhookOnItsCrdAndAMutatingAndAValidatingConfiguration()
      throws Exception {
    sim.resources.apply(
        TestCrds.serviceMonitor()); // kepler ships a ServiceMonitor: the cluster must serve its API
    sim.desire(
        PlusCatalogs.allNamespaces("kepler", "kepler-operator", "alpha", "kepler-ops", "0.24.0"));
    awaitSucceeded("kepler", "kepler-operator.v0.24.0");

    String ca =
        decode(
            sim.get("v1", "Secret", "kepler-ops", "kepler-operator-controller-service-cert")
                .orElseThrow()
                .path("data")
                .path("olmCAKey")
                .asText());
    JsonNode conversion =
        sim.get(
                "apiextensions.k8s.io/v1",
                "CustomResourceDefinition",
                null,
                "powermonitors.kepler.system.sustainable.computing.io")
            .orElseThrow()
            .path("spec")
            .path("conversion");
    assertThat(conversion.path("strategy").asText()).isEqualTo("Webhook");
    assertThat(
            conversion.path("webhook").path("clientConfig").path("service").path("path").asText())
        .isEqualTo("/convert");
    assertThat(decode(conversion.path("webhook").path("clientConfig").path("caBundle").asText()))
        .isEqualTo(ca);
    assertThat(owned(ADMISSION, "MutatingWebhookConfiguration", "kepler")).hasSize(1);
    assertThat(owned(ADMISSION, "ValidatingWebhookConfiguration", "kepler")).hasSize(1);
  }

  @Test
  void certManagerGetsItsWebhooksOnTheWebhookDeploymentWithANamedTargetPort() throws Exception {
    sim.desire(
        PlusCatalogs.allNamespaces("cm", "cert-manager", "stable", "cert-manager", "1.16.5"));
    awaitSucceeded("cm", "cert-manager.v1.16.5");

    JsonNode service =
        sim.get("v1", "Service", "cert-manager", "cert-manager-webhook-service").orElseThrow();
    assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText())
        .isEqualTo("https");
    JsonNode secret =
        sim.get("v1", "Secret", "cert-manager", "cert-manager-webhook-service-cert").orElseThrow();
    String ca = decode(secret.path("data").path("olmCAKey").asText());
    assertChainValid(
        ca,
        decode(secret.path("data").path("tls.crt").asText()),
        "cert-manager-webhook-service.cert-manager.svc");
    JsonNode mutating =
        owned(ADMISSION, "MutatingWebhookConfiguration", "cm").get(0).path("webhooks").get(0);
    assertThat(mutating.path("timeoutSeconds").asInt()).isEqualTo(30);
    assertThat(mutating.path("matchPolicy").asText()).isEqualTo("Equivalent");
    assertThat(owned(ADMISSION, "ValidatingWebhookConfiguration", "cm")).hasSize(1);
  }

  @Test
  void aDeletedCertificateSecretIsRestoredWithANewCaThatEveryWebhookFollows() throws Exception {
    sim.desire(topology("1.19.3"));
    awaitSucceeded("topology", "rabbitmq-messaging-topology-operator.v1.19.3");
    String before =
        sim.get("v1", "Secret", "rmq", "messaging-topology-operator-service-cert")
            .orElseThrow()
            .path("data")
            .path("olmCAKey")
            .asText();

    sim.resources.delete("v1", "Secret", "rmq", "messaging-topology-operator-service-cert");

    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              String after =
                  sim.get("v1", "Secret", "rmq", "messaging-topology-operator-service-cert")
                      .orElseThrow()
                      .path("data")
                      .path("olmCAKey")
                      .asText();
              if (after.equals(before)) {
                // A pass that read the Secret just before the delete writes back what it read (as
                // any controller acting on
                // a read it made earlier would); the pass after that keeps the valid certificate.
                // Delete it again: the
                // property under test is what a pass that finds no Secret does.
                sim.resources.delete(
                    "v1", "Secret", "rmq", "messaging-topology-operator-service-cert");
              }
              assertThat(after).isNotEqualTo(before);
              for (JsonNode config :
                  owned(ADMISSION, "ValidatingWebhookConfiguration", "topology")) {
                assertThat(
                        config
                            .path("webhooks")
                            .get(0)
                            .path("clientConfig")
                            .path("caBundle")
                            .asText())
                    .isEqualTo(after);
              }
            });
  }

  @Test
  void
      twoInstallsOfOnePackageInTwoNamespacesKeepTheirOwnAuthBindingsAndRemovingOneLeavesTheOthers() {
    sim.desire(ownNamespace("topo-a", "rmq-a"), ownNamespace("topo-b", "rmq-b"));
    // two operators and their two dependencies installed side by side: allow them the time of four
    // installs
    awaitSucceeded("topo-a", "rabbitmq-messaging-topology-operator.v1.19.3", WAIT.multipliedBy(3));
    awaitSucceeded("topo-b", "rabbitmq-messaging-topology-operator.v1.19.3", WAIT.multipliedBy(3));

    for (String ns : List.of("rmq-a", "rmq-b")) {
      JsonNode delegator =
          sim.get(
                  RBAC,
                  "ClusterRoleBinding",
                  null,
                  "messaging-topology-operator-service." + ns + "-system:auth-delegator")
              .orElseThrow();
      assertThat(delegator.path("subjects").get(0).path("namespace").asText()).isEqualTo(ns);
      JsonNode reader =
          sim.get(
                  RBAC,
                  "RoleBinding",
                  "kube-system",
                  "messaging-topology-operator-service." + ns + "-auth-reader")
              .orElseThrow();
      assertThat(reader.path("subjects").get(0).path("namespace").asText()).isEqualTo(ns);
    }

    sim.desire(ownNamespace("topo-b", "rmq-b"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(
                      sim.get(
                          RBAC,
                          "ClusterRoleBinding",
                          null,
                          "messaging-topology-operator-service.rmq-a-system:auth-delegator"))
                  .isEmpty();
              assertThat(
                      sim.get(
                          RBAC,
                          "RoleBinding",
                          "kube-system",
                          "messaging-topology-operator-service.rmq-a-auth-reader"))
                  .isEmpty();
            });
    assertThat(
            sim.get(
                RBAC,
                "ClusterRoleBinding",
                null,
                "messaging-topology-operator-service.rmq-b-system:auth-delegator"))
        .isPresent();
    assertThat(
            sim.get(
                RBAC,
                "RoleBinding",
                "kube-system",
                "messaging-topology-operator-service.rmq-b-auth-reader"))
        .isPresent();
    awaitSucceeded("topo-b", "rabbitmq-messaging-topology-operator.v1.19.3");
  }

  private static SubscriptionToReconcile ownNamespace(String name, String namespace) {
    return new SubscriptionToReconcile(
        name,
        SharedCatalogs.CATALOG,
        null,
        "rabbitmq-messaging-topology-operator",
        "stable",
        namespace,
        List.of(namespace),
        SubscriptionToReconcile.Approval.AUTOMATIC,
        null,
        "1.19.3",
        null,
        false,
        1,
        null);
  }

  private static SubscriptionToReconcile topology(String maxVersion) {
    return SubscriptionToReconcile.of(
        "topology",
        SharedCatalogs.CATALOG,
        "rabbitmq-messaging-topology-operator",
        "stable",
        "rmq",
        maxVersion);
  }

  private List<JsonNode> owned(String apiVersion, String kind, String subscription) {
    return sim.list(apiVersion, kind).stream()
        .filter(o -> subscription.equals(sim.label(o, ManagedLabels.SUBSCRIPTION)))
        .toList();
  }

  private List<String> generateNames(String subscription) {
    return owned(ADMISSION, "ValidatingWebhookConfiguration", subscription).stream()
        .map(o -> sim.label(o, "olm.webhook-description-generate-name"))
        .toList();
  }

  private void awaitSucceeded(String sub, String bundle) {
    awaitSucceeded(sub, bundle, WAIT);
  }

  private void awaitSucceeded(String sub, String bundle, Duration wait) {
    await()
        .atMost(wait)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest(sub).orElseThrow();
              assertThat(s.installedBundle()).as(s.toString()).isEqualTo(bundle);
              assertThat(s.phase()).as(s.toString()).isEqualTo("Succeeded");
            });
  }

  /**
   * What the API server does before calling the webhook: the serving certificate chains to caBundle
   * for the host.
   */
  static void assertChainValid(String caPem, String certPem, String host) throws Exception {
    X509Certificate ca = CertRotation.parse(caPem);
    X509Certificate cert = CertRotation.parse(certPem);
    CertPath path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(cert));
    PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
    params.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX").validate(path, params);
    assertThat(cert.getSubjectAlternativeNames())
        .anySatisfy(name -> assertThat(name.get(1)).isEqualTo(host));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.US_ASCII);
  }
}
