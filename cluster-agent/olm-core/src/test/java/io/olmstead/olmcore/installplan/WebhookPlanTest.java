package io.olmstead.olmcore.installplan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Names and shapes of what OLM writes for webhooks (upstream certresources_test.go and
 * webhook_test.go cases).
 */
class WebhookPlanTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String ALL =
      "[{'type':'AllNamespaces','supported':true},{'type':'OwnNamespace','supported':false}]";
  private static final String EVERY =
      "[{'type':'AllNamespaces','supported':true},{'type':'OwnNamespace','supported':true},{'type':'SingleNamespace','supported':true}]";
  private final InstallPlanner planner = new InstallPlanner();

  static ObjectNode json(String text) {
    try {
      return (ObjectNode) MAPPER.readTree(text.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  static ObjectNode csv(String modes, String webhooks) {
    return json(
        """
            {'apiVersion':'operators.coreos.com/v1alpha1','kind':'ClusterServiceVersion','metadata':{'name':'hooks.v1'},
             'spec':{'installModes':%s,'webhookdefinitions':%s,
              'customresourcedefinitions':{'owned':[{'name':'widgets.example.com','version':'v1','kind':'Widget'}]},
              'install':{'strategy':'deployment','spec':{'deployments':[{'name':'hooks.manager','spec':{
               'selector':{'matchLabels':{'app':'hooks'}},
               'template':{'metadata':{'labels':{'app':'hooks'}},'spec':{'serviceAccountName':'hooks-sa',
                'volumes':[{'name':'cert','secret':{'secretName':'webhook-server-cert'}}],
                'containers':[{'name':'manager','image':'hooks:1','volumeMounts':[
                  {'name':'cert','mountPath':'/tmp/k8s-webhook-server/serving-certs','readOnly':true},
                  {'name':'other','mountPath':'/data'}]}]}}}}]}}}}
            """
            .formatted(modes, webhooks));
  }

  static String validating(String generateName, String deployment, int port) {
    return """
            {'type':'ValidatingAdmissionWebhook','generateName':'%s','deploymentName':'%s','containerPort':%d,
             'targetPort':9443,'admissionReviewVersions':['v1'],'failurePolicy':'Fail','sideEffects':'None',
             'timeoutSeconds':7,'objectSelector':{'matchLabels':{'x':'y'}},'webhookPath':'/validate-widget',
             'rules':[{'apiGroups':['example.com'],'apiVersions':['v1'],'operations':['CREATE'],'resources':['widgets']}]}
            """
        .formatted(generateName, deployment, port);
  }

  static final String MUTATING =
      """
        {'type':'MutatingAdmissionWebhook','generateName':'mwidget.example.com','deploymentName':'hooks.manager',
         'admissionReviewVersions':['v1'],'sideEffects':'None','reinvocationPolicy':'IfNeeded','webhookPath':'/mutate'}
        """;
  static final String CONVERSION =
      """
        {'type':'ConversionWebhook','generateName':'cwidget.example.com','deploymentName':'hooks.manager',
         'containerPort':443,'targetPort':9443,'admissionReviewVersions':['v1'],'webhookPath':'/convert',
         'conversionCRDs':['widgets.example.com']}
        """;
  static final ObjectNode CRD =
      json(
          """
        {'apiVersion':'apiextensions.k8s.io/v1','kind':'CustomResourceDefinition','metadata':{'name':'widgets.example.com'},
         'spec':{'group':'example.com','names':{'kind':'Widget','plural':'widgets'},'scope':'Namespaced',
          'versions':[{'name':'v1','served':true,'storage':true}]}}
        """);

  private InstallPlanResult plan(ObjectNode csv, List<String> targets) {
    return planner.planManifests(
        List.of(csv, CRD), "ops", "og", targets, SubscriptionConfig.empty());
  }

  private static List<JsonNode> ofKind(InstallPlanResult plan, String kind) {
    return plan.objects().stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
  }

  private static JsonNode named(InstallPlanResult plan, String kind, String name) {
    return ofKind(plan, kind).stream()
        .filter(o -> name.equals(o.path("metadata").path("name").asText()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in " + plan.objects()));
  }

  @Test
  void aWebhookDeploymentGetsTheServiceNamedAfterItWithDotsAsDashes() {
    InstallPlanResult plan =
        plan(
            csv(ALL, "[" + validating("vwidget.example.com", "hooks.manager", 443) + "]"),
            List.of(""));

    JsonNode service = named(plan, "Service", "hooks-manager-service");
    assertThat(service.path("metadata").path("namespace").asText()).isEqualTo("ops");
    assertThat(service.path("spec").path("ports")).hasSize(1);
    assertThat(service.path("spec").path("ports").get(0).toString())
        .isEqualTo("{\"name\":\"443\",\"port\":443,\"targetPort\":9443}");
    assertThat(service.path("spec").path("selector").toString()).isEqualTo("{\"app\":\"hooks\"}");
  }

  @Test
  void theCertificateSecretIsReadableByTheDeploymentsServiceAccountThroughOlmsRoleAndBindings() {
    InstallPlanResult plan =
        plan(
            csv(ALL, "[" + validating("vwidget.example.com", "hooks.manager", 443) + "]"),
            List.of(""));

    JsonNode secret = named(plan, "Secret", "hooks-manager-service-cert");
    assertThat(secret.path("type").asText()).isEqualTo("kubernetes.io/tls");
    JsonNode role = named(plan, "Role", "hooks-manager-service-cert");
    assertThat(role.path("rules").toString())
        .isEqualTo(
            "[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"secrets\"],\"resourceNames\":[\"hooks-manager-service-cert\"]}]");
    JsonNode binding = named(plan, "RoleBinding", "hooks-manager-service-cert");
    assertThat(binding.path("subjects").get(0).path("name").asText()).isEqualTo("hooks-sa");
    assertThat(binding.path("roleRef").path("name").asText())
        .isEqualTo("hooks-manager-service-cert");
    assertThat(
            named(plan, "ClusterRoleBinding", "hooks-manager-service.ops-system:auth-delegator")
                .path("roleRef")
                .path("name")
                .asText())
        .isEqualTo("system:auth-delegator");
    assertThat(
            named(plan, "RoleBinding", "hooks-manager-service.ops-auth-reader")
                .path("metadata")
                .path("namespace")
                .asText())
        .isEqualTo("kube-system");
  }

  @Test
  void theSecretIsMountedAtBothOlmPathsReplacingTheMountTheCsvHadThere() {
    InstallPlanResult plan =
        plan(
            csv(ALL, "[" + validating("vwidget.example.com", "hooks.manager", 443) + "]"),
            List.of(""));

    JsonNode pod =
        named(plan, "Deployment", "hooks.manager").path("spec").path("template").path("spec");
    List<String> mounts = new ArrayList<>();
    pod.path("containers")
        .get(0)
        .path("volumeMounts")
        .forEach(m -> mounts.add(m.path("name").asText() + "@" + m.path("mountPath").asText()));
    assertThat(mounts)
        .containsExactly(
            "webhook-cert@/tmp/k8s-webhook-server/serving-certs",
            "other@/data",
            "apiservice-cert@/apiserver.local.config/certificates");
    JsonNode webhookVolume = volume(pod, "webhook-cert");
    assertThat(webhookVolume.path("secret").path("secretName").asText())
        .isEqualTo("hooks-manager-service-cert");
    assertThat(webhookVolume.path("secret").path("items").toString())
        .isEqualTo(
            "[{\"key\":\"tls.crt\",\"path\":\"tls.crt\"},{\"key\":\"tls.key\",\"path\":\"tls.key\"}]");
    assertThat(volume(pod, "apiservice-cert").path("secret").path("items").toString())
        .isEqualTo(
            "[{\"key\":\"tls.crt\",\"path\":\"apiserver.crt\"},{\"key\":\"tls.key\",\"path\":\"apiserver.key\"}]");
  }

  @Test
  void aValidatingWebhookConfigurationCarriesTheCsvFieldsUnderOlmsGeneratedName() {
    InstallPlanResult plan =
        plan(
            csv(ALL, "[" + validating("vwidget.example.com", "hooks.manager", 8443) + "]"),
            List.of(""));

    JsonNode config = ofKind(plan, "ValidatingWebhookConfiguration").get(0);
    assertThat(config.path("metadata").path("name").asText())
        .matches("vwidget\\.example\\.com-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(
            config
                .path("metadata")
                .path("labels")
                .path("olm.webhook-description-generate-name")
                .asText())
        .isEqualTo("vwidget.example.com");
    JsonNode webhook = config.path("webhooks").get(0);
    assertThat(webhook.path("name").asText()).isEqualTo("vwidget.example.com");
    assertThat(webhook.path("rules").get(0).path("resources").get(0).asText()).isEqualTo("widgets");
    assertThat(webhook.path("failurePolicy").asText()).isEqualTo("Fail");
    assertThat(webhook.path("sideEffects").asText()).isEqualTo("None");
    assertThat(webhook.path("timeoutSeconds").asInt()).isEqualTo(7);
    assertThat(webhook.path("admissionReviewVersions").toString()).isEqualTo("[\"v1\"]");
    assertThat(webhook.path("objectSelector").toString())
        .isEqualTo("{\"matchLabels\":{\"x\":\"y\"}}");
    assertThat(webhook.has("namespaceSelector")).isFalse();
    assertThat(webhook.path("clientConfig").path("service").toString())
        .isEqualTo(
            "{\"namespace\":\"ops\",\"name\":\"hooks-manager-service\",\"path\":\"/validate-widget\",\"port\":8443}");
  }

  @Test
  void aWebhookOfASingleNamespaceGroupSelectsItsTargetNamespaces() {
    InstallPlanResult plan =
        plan(
            csv(EVERY, "[" + validating("v.example.com", "hooks.manager", 443) + "]"),
            List.of("team-a"));

    assertThat(
            ofKind(plan, "ValidatingWebhookConfiguration")
                .get(0)
                .path("webhooks")
                .get(0)
                .path("namespaceSelector")
                .toString())
        .isEqualTo(
            "{\"matchExpressions\":[{\"key\":\"kubernetes.io/metadata.name\",\"operator\":\"In\","
                + "\"values\":[\"team-a\"]}]}");
  }

  @Test
  void aMutatingWebhookKeepsItsReinvocationPolicyAndDefaultsToPort443() {
    InstallPlanResult plan = plan(csv(ALL, "[" + MUTATING + "]"), List.of(""));

    JsonNode webhook = ofKind(plan, "MutatingWebhookConfiguration").get(0).path("webhooks").get(0);
    assertThat(webhook.path("reinvocationPolicy").asText()).isEqualTo("IfNeeded");
    assertThat(webhook.path("clientConfig").path("service").path("port").asInt()).isEqualTo(443);
    assertThat(
            named(plan, "Service", "hooks-manager-service")
                .path("spec")
                .path("ports")
                .get(0)
                .path("targetPort")
                .asInt())
        .isEqualTo(443);
  }

  @Test
  void aConversionWebhookPointsTheOwnedCrdAtTheService() {
    InstallPlanResult plan = plan(csv(ALL, "[" + CONVERSION + "]"), List.of(""));

    JsonNode conversion =
        named(plan, "CustomResourceDefinition", "widgets.example.com")
            .path("spec")
            .path("conversion");
    assertThat(conversion.path("strategy").asText()).isEqualTo("Webhook");
    assertThat(conversion.path("webhook").path("conversionReviewVersions").toString())
        .isEqualTo("[\"v1\"]");
    assertThat(conversion.path("webhook").path("clientConfig").path("service").toString())
        .isEqualTo(
            "{\"namespace\":\"ops\",\"name\":\"hooks-manager-service\",\"path\":\"/convert\",\"port\":443}");
  }

  @Test
  void aConversionWebhookOnACsvSupportingMoreThanAllNamespacesFailsAsUnsupportedOperatorGroup() {
    InstallPlanResult plan = plan(csv(EVERY, "[" + CONVERSION + "]"), List.of(""));

    assertThat(plan.succeeded()).isFalse();
    assertThat(plan.reason()).isEqualTo("UnsupportedOperatorGroup");
    assertThat(plan.message())
        .contains("CSVs with conversion webhooks must support only AllNamespaces");
    assertThat(plan.objects()).isEmpty();
  }

  @Test
  void aConversionWebhookOnACrdTheCsvDoesNotOwnFailsNamingTheField() {
    InstallPlanResult plan =
        plan(
            csv(ALL, "[" + CONVERSION.replace("widgets.example.com", "gadgets.example.com") + "]"),
            List.of(""));

    assertThat(plan.reason()).isEqualTo("InvalidInstallStrategy");
    assertThat(plan.message())
        .contains("conversionCRDs")
        .contains("does not own CRD gadgets.example.com");
  }

  @Test
  void aWebhookNamingAnAbsentDeploymentFailsNamingTheField() {
    InstallPlanResult plan =
        plan(csv(ALL, "[" + validating("v.example.com", "nope", 443) + "]"), List.of(""));

    assertThat(plan.reason()).isEqualTo("InvalidInstallStrategy");
    assertThat(plan.message()).contains("spec.webhookdefinitions[0].deploymentName \"nope\"");
    assertThat(plan.objects()).isEmpty();
  }

  @Test
  void aWebhookPortOutOfRangeFailsNamingTheField() {
    InstallPlanResult plan =
        plan(
            csv(ALL, "[" + validating("v.example.com", "hooks.manager", 70000) + "]"), List.of(""));

    assertThat(plan.reason()).isEqualTo("InvalidInstallStrategy");
    assertThat(plan.message())
        .contains("spec.webhookdefinitions[0].containerPort 70000 is out of range");
  }

  @Test
  void twoWebhooksWithOneGenerateNameFailNamingTheSecond() {
    String hook = validating("v.example.com", "hooks.manager", 443);
    InstallPlanResult plan = plan(csv(ALL, "[" + hook + "," + hook + "]"), List.of(""));

    assertThat(plan.reason()).isEqualTo("InvalidInstallStrategy");
    assertThat(plan.message())
        .contains("spec.webhookdefinitions[1].generateName \"v.example.com\"");
  }

  @Test
  void anOwnedApiServiceGetsOlmsApiServiceOnTheDeploymentsService() {
    ObjectNode csv = csv(ALL, "[]");
    ((ObjectNode) csv.path("spec"))
        .set(
            "apiservicedefinitions",
            json(
                """
            {'owned':[{'name':'metrics','group':'metrics.example.com','version':'v1beta1','kind':'Metric',
              'deploymentName':'hooks.manager','containerPort':5443}]}"""));
    InstallPlanResult plan = plan(csv, List.of(""));

    JsonNode api = named(plan, "APIService", "v1beta1.metrics.example.com");
    assertThat(api.path("spec").path("service").toString())
        .isEqualTo("{\"name\":\"hooks-manager-service\",\"namespace\":\"ops\",\"port\":5443}");
    assertThat(api.path("spec").path("groupPriorityMinimum").asInt()).isEqualTo(2000);
    assertThat(api.path("spec").path("versionPriority").asInt()).isEqualTo(15);
  }

  @Test
  void injectionPutsTheCaInEveryCaBundleTheCertificateInTheSecretAndTheCaHashOnThePods() {
    InstallPlanResult plan =
        plan(
            csv(
                ALL,
                "[" + validating("v.example.com", "hooks.manager", 443) + "," + CONVERSION + "]"),
            List.of(""));
    ServingCert cert =
        new ServingCert("CA-PEM", "CERT-PEM", "KEY-PEM", Instant.parse("2030-01-01T00:00:00Z"));

    List<JsonNode> filled =
        ServingCertInjection.inject(plan.objects(), Map.of("hooks-manager-service", cert));

    String ca = Base64.getEncoder().encodeToString("CA-PEM".getBytes(StandardCharsets.US_ASCII));
    assertThat(ServingCertInjection.services(plan.objects()))
        .containsExactly("hooks-manager-service");
    JsonNode secret =
        filled.stream()
            .filter(o -> "Secret".equals(o.path("kind").asText()))
            .findFirst()
            .orElseThrow();
    assertThat(secret.path("data").path("olmCAKey").asText()).isEqualTo(ca);
    assertThat(secret.path("data").has("tls.key")).isTrue();
    for (JsonNode o : filled) {
      switch (o.path("kind").asText()) {
        case "ValidatingWebhookConfiguration" ->
            assertThat(o.path("webhooks").get(0).path("clientConfig").path("caBundle").asText())
                .isEqualTo(ca);
        case "CustomResourceDefinition" ->
            assertThat(
                    o.path("spec")
                        .path("conversion")
                        .path("webhook")
                        .path("clientConfig")
                        .path("caBundle")
                        .asText())
                .isEqualTo(ca);
        case "Deployment" ->
            assertThat(
                    o.path("spec")
                        .path("template")
                        .path("metadata")
                        .path("annotations")
                        .path("olmcahash")
                        .asText())
                .isEqualTo(ServingCertInjection.caHash("CA-PEM"));
        default -> {}
      }
    }
    assertThat(cert.toString()).doesNotContain("KEY-PEM");
  }

  @Test
  void aBundleSecretCannotAskForAnotherServicesCertificate() {
    // a bundle's own Secret annotated for another operator's Service must not get that Service's
    // key filled in
    ObjectNode stolen =
        json(
            """
            {'apiVersion':'v1','kind':'Secret','metadata':{'name':'loot',
             'annotations':{'olmstead.io/serving-cert-for':'victim-service'}}}
            """);
    InstallPlanResult plan =
        planner.planManifests(
            List.of(csv(ALL, "[]"), CRD, stolen),
            "ops",
            "og",
            List.of(""),
            SubscriptionConfig.empty());
    ServingCert victim =
        new ServingCert("CA-PEM", "CERT-PEM", "VICTIM-KEY", Instant.parse("2030-01-01T00:00:00Z"));

    assertThat(plan.succeeded()).as(plan.toString()).isTrue();
    assertThat(ServingCertInjection.services(plan.objects())).isEmpty();
    assertThat(ServingCertInjection.services(List.of(stolen))).isEmpty();
    assertThat(
            ServingCertInjection.inject(plan.objects(), Map.of("victim-service", victim))
                .toString())
        .doesNotContain(
            Base64.getEncoder().encodeToString("VICTIM-KEY".getBytes(StandardCharsets.US_ASCII)));
  }

  @Test
  void planningTwiceMountsOnceAndGivesTheSameNames() {
    ObjectNode csv = csv(ALL, "[" + validating("v.example.com", "hooks.manager", 443) + "]");
    InstallPlanResult first = plan(csv, List.of(""));
    InstallPlanResult second = plan(csv, List.of(""));

    assertThat(second.objects()).isEqualTo(first.objects());
    ArrayNode volumes =
        (ArrayNode)
            named(first, "Deployment", "hooks.manager")
                .path("spec")
                .path("template")
                .path("spec")
                .path("volumes");
    assertThat(volumes).hasSize(3);
  }

  private static JsonNode volume(JsonNode pod, String name) {
    for (JsonNode v : pod.path("volumes")) {
      if (name.equals(v.path("name").asText())) {
        return v;
      }
    }
    throw new AssertionError("no volume " + name);
  }
}
