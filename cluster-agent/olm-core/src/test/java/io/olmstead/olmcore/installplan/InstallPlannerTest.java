package io.olmstead.olmcore.installplan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ParseLimits;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstallPlannerTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final InstallPlanner planner = new InstallPlanner();

  static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  static ObjectNode csv(String installModes) {
    return (ObjectNode)
        json(
            """
                {'apiVersion': 'operators.coreos.com/v1alpha1', 'kind': 'ClusterServiceVersion',
                  'metadata': {'name': 'demo-operator.v1.2.3', 'namespace': 'somewhere'},
                  'spec': {'installModes': %s,
                      'install': {'strategy': 'deployment', 'spec': {
                          'permissions': [{'serviceAccountName': 'demo-sa', 'rules': [{'apiGroups': [''], 'resources': ['configmaps'], 'verbs': ['get']}]}],
                          'clusterPermissions': [{'serviceAccountName': 'demo-sa', 'rules': [{'apiGroups': [''], 'resources': ['nodes'], 'verbs': ['list']}]}],
                          'deployments': [{'name': 'demo-controller', 'label': {'app': 'demo'}, 'spec': {
                              'selector': {'matchLabels': {'app': 'demo'}},
                              'template': {'metadata': {'labels': {'app': 'demo'}, 'annotations': {'keep': 'me'}},
                                  'spec': {'serviceAccountName': 'demo-sa',
                                      'volumes': [{'name': 'certs', 'emptyDir': {}}],
                                      'tolerations': [{'key': 'a', 'operator': 'Exists'}],
                                      'affinity': {'nodeAffinity': {'x': 1}, 'podAffinity': {'y': 2}},
                                      'containers': [
                                          {'name': 'manager', 'image': 'demo:1', 'env': [{'name': 'LOG', 'value': 'info'}, {'name': 'KEEP', 'value': '1'}],
                                            'volumeMounts': [{'name': 'certs', 'mountPath': '/certs'}]},
                                          {'name': 'proxy', 'image': 'proxy:1'}]}}}}]}}}}
                """
                .formatted(installModes));
  }

  static final String ALL_MODES =
      "[{'type': 'OwnNamespace', 'supported': true}, {'type': 'SingleNamespace', 'supported': true},"
          + " {'type': 'MultiNamespace', 'supported': true}, {'type': 'AllNamespaces', 'supported': true}]";
  static final String NO_MULTI =
      ALL_MODES.replace(
          "'MultiNamespace', 'supported': true", "'MultiNamespace', 'supported': false");

  static List<JsonNode> bundle(JsonNode csv) {
    return List.of(
        json(
            "{'apiVersion': 'v1', 'kind': 'Service', 'metadata': {'name': 'demo-metrics', 'namespace': 'elsewhere'}}"),
        csv,
        json("{'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'demo-config'}}"),
        json(
            "{'apiVersion': 'apiextensions.k8s.io/v1', 'kind': 'CustomResourceDefinition', 'metadata': {'name': 'demos.example.com', 'namespace': 'x'}}"));
  }

  private InstallPlanResult plan(List<String> targets, SubscriptionConfig config) {
    return planner.planManifests(bundle(csv(ALL_MODES)), "operators", "og", targets, config);
  }

  private static JsonNode deployment(InstallPlanResult r) {
    return r.objects().stream()
        .filter(o -> o.path("kind").asText().equals("Deployment"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void ordersCrdsThenRbacThenDeploymentsThenTheRest() {
    InstallPlanResult r = plan(List.of(""), SubscriptionConfig.empty());

    assertThat(r.succeeded()).as(r.message()).isTrue();
    assertThat(r.objects())
        .extracting(o -> o.path("kind").asText())
        .containsExactly(
            "CustomResourceDefinition",
            "ServiceAccount",
            "Role",
            "Role",
            "RoleBinding",
            "RoleBinding",
            "ClusterRole",
            "ClusterRole",
            "ClusterRoleBinding",
            "ClusterRoleBinding",
            "Deployment",
            "Service",
            "ConfigMap");
    assertThat(r.csv())
        .hasValueSatisfying(
            c -> assertThat(c.path("metadata").path("namespace").asText()).isEqualTo("operators"));
  }

  @Test
  void setsTheNamespaceOnlyOnNamespacedObjects() {
    InstallPlanResult r = plan(List.of(""), SubscriptionConfig.empty());

    for (JsonNode o : r.objects()) {
      String kind = o.path("kind").asText();
      boolean clusterScoped = kind.equals("CustomResourceDefinition") || kind.startsWith("Cluster");
      assertThat(o.path("metadata").has("namespace")).as(kind).isEqualTo(!clusterScoped);
      if (!clusterScoped) {
        assertThat(o.path("metadata").path("namespace").asText()).as(kind).isEqualTo("operators");
      }
    }
  }

  @Test
  void generatesDeterministicBoundedRbacNamesBoundToTheServiceAccount() {
    InstallPlanResult first = plan(List.of(""), SubscriptionConfig.empty());
    InstallPlanResult second = plan(List.of(""), SubscriptionConfig.empty());
    JsonNode role = first.objects().get(2);
    JsonNode binding = first.objects().get(4);
    JsonNode clusterBinding = first.objects().get(8);

    assertThat(role.path("metadata").path("name").asText())
        .startsWith("demo-operator.v1.2.3-demo-sa-")
        .isEqualTo(second.objects().get(2).path("metadata").path("name").asText());
    assertThat(binding.path("roleRef").path("name").asText())
        .isEqualTo(role.path("metadata").path("name").asText());
    assertThat(binding.path("subjects").get(0).path("name").asText()).isEqualTo("demo-sa");
    assertThat(clusterBinding.path("subjects").get(0).path("namespace").asText())
        .isEqualTo("operators");
    assertThat(role.path("rules").get(0).path("resources").get(0).asText()).isEqualTo("configmaps");
  }

  @Test
  void generatedNamesNeverExceed63Characters() {
    String name = RbacGenerator.generateName("x".repeat(100), "input");
    assertThat(name).hasSize(63);
    assertThat(RbacGenerator.generateName("short", "input"))
        .startsWith("short-")
        .hasSizeLessThan(20);
    assertThat(RbacGenerator.generateName("short", "input"))
        .isNotEqualTo(RbacGenerator.generateName("short", "other"));
  }

  @Test
  void injectsOperatorConditionNameAndOperatorGroupAnnotations() {
    JsonNode d = deployment(plan(List.of("team-a", "team-b"), SubscriptionConfig.empty()));
    JsonNode annotations = d.path("spec").path("template").path("metadata").path("annotations");

    assertThat(annotations.path("olm.targetNamespaces").asText()).isEqualTo("team-a,team-b");
    assertThat(annotations.path("olm.operatorNamespace").asText()).isEqualTo("operators");
    assertThat(annotations.path("olm.operatorGroup").asText()).isEqualTo("og");
    for (JsonNode c : d.path("spec").path("template").path("spec").path("containers")) {
      assertThat(c.path("env").findValuesAsText("name")).contains("OPERATOR_CONDITION_NAME");
      assertThat(c.path("env").toString()).contains("demo-operator.v1.2.3");
    }
    assertThat(d.path("metadata").path("labels").path("app").asText()).isEqualTo("demo");
  }

  @Test
  void allNamespacesTargetIsAnEmptyAnnotation() {
    JsonNode d = deployment(plan(List.of(""), SubscriptionConfig.empty()));
    assertThat(
            d.path("spec")
                .path("template")
                .path("metadata")
                .path("annotations")
                .path("olm.targetNamespaces")
                .isTextual())
        .isTrue();
    assertThat(
            d.path("spec")
                .path("template")
                .path("metadata")
                .path("annotations")
                .path("olm.targetNamespaces")
                .asText())
        .isEmpty();
  }

  @Test
  void appliesSubscriptionConfigLikeOlm() {
    SubscriptionConfig config =
        SubscriptionConfig.fromJson(
            json(
                """
                {'env': [{'name': 'LOG', 'value': 'debug'}, {'name': 'NEW', 'value': 'x'}],
                  'envFrom': [{'secretRef': {'name': 'license'}}],
                  'resources': {'limits': {'cpu': '1'}},
                  'nodeSelector': {'disk': 'ssd'},
                  'tolerations': [{'key': 'a', 'operator': 'Exists'}, {'key': 'b', 'operator': 'Exists'}],
                  'affinity': {'podAffinity': {}, 'podAntiAffinity': {'z': 3}},
                  'volumes': [{'name': 'certs', 'secret': {'secretName': 's'}}, {'name': 'extra', 'emptyDir': {}}],
                  'volumeMounts': [{'name': 'certs', 'mountPath': '/new-certs'}],
                  'annotations': {'keep': 'overridden?', 'team': 'blue'}}
                """));
    JsonNode d = deployment(plan(List.of("operators"), config));
    JsonNode pod = d.path("spec").path("template").path("spec");
    JsonNode manager = pod.path("containers").get(0);

    assertThat(manager.path("env").findValuesAsText("name"))
        .containsExactly("LOG", "KEEP", "NEW", "OPERATOR_CONDITION_NAME");
    assertThat(manager.path("env").get(0).path("value").asText()).isEqualTo("debug");
    assertThat(pod.path("containers").get(1).path("env").findValuesAsText("name"))
        .containsExactly("LOG", "NEW", "OPERATOR_CONDITION_NAME");
    assertThat(manager.path("envFrom").size()).isEqualTo(1);
    assertThat(manager.path("resources").path("limits").path("cpu").asText()).isEqualTo("1");
    assertThat(pod.path("nodeSelector").path("disk").asText()).isEqualTo("ssd");
    assertThat(pod.path("tolerations").findValuesAsText("key")).containsExactly("a", "b");
    assertThat(pod.path("affinity").has("nodeAffinity")).isTrue();
    assertThat(pod.path("affinity").has("podAffinity")).isFalse();
    assertThat(pod.path("affinity").path("podAntiAffinity").path("z").asInt()).isEqualTo(3);
    assertThat(pod.path("volumes").findValuesAsText("name")).containsExactly("certs", "extra");
    assertThat(pod.path("volumes").get(0).has("secret")).isTrue();
    assertThat(manager.path("volumeMounts").get(0).path("mountPath").asText())
        .isEqualTo("/new-certs");
    assertThat(pod.path("containers").get(1).path("volumeMounts").findValuesAsText("name"))
        .containsExactly("certs");
    JsonNode podAnnotations = d.path("spec").path("template").path("metadata").path("annotations");
    assertThat(podAnnotations.path("keep").asText()).isEqualTo("me");
    assertThat(podAnnotations.path("team").asText()).isEqualTo("blue");
    assertThat(d.path("metadata").path("annotations").path("team").asText()).isEqualTo("blue");
  }

  @Test
  void emptyAffinityOverrideRemovesTheAffinity() {
    SubscriptionConfig config = SubscriptionConfig.fromJson(json("{'affinity': {}}"));
    JsonNode pod = deployment(plan(List.of(""), config)).path("spec").path("template").path("spec");
    assertThat(pod.has("affinity")).isFalse();
  }

  @Test
  void doesNotModifyTheInputManifests() {
    List<JsonNode> manifests = bundle(csv(ALL_MODES));
    String before = manifests.toString();
    planner.planManifests(
        manifests,
        "operators",
        "og",
        List.of(""),
        SubscriptionConfig.fromJson(json("{'env': [{'name': 'A'}]}")));
    assertThat(manifests.toString()).isEqualTo(before);
  }

  @Test
  void unsupportedTargetNamespacesFailWithOlmReasonAndMessage() {
    List<JsonNode> manifests = bundle(csv(NO_MULTI));
    InstallPlanResult multi =
        planner.planManifests(manifests, "operators", "og", List.of("a", "b"), null);
    InstallPlanResult allWithOthers =
        planner.planManifests(bundle(csv(ALL_MODES)), "operators", "og", List.of("", "a"), null);

    assertThat(multi.reason()).isEqualTo("UnsupportedOperatorGroup");
    assertThat(multi.message())
        .isEqualTo(
            "MultiNamespace InstallModeType not supported, cannot configure to watch 2 namespaces");
    assertThat(allWithOthers.message())
        .isEqualTo(
            "operatorgroup has invalid selected namespaces, NamespaceAll found when |selected namespaces| > 1");
    assertThat(multi.objects()).isEmpty();
  }

  @Test
  void noTargetsMeanAllNamespacesWhereTheBundleSupportsItElseItsOwnNamespace() {
    String onlyOwn =
        "[{'type': 'OwnNamespace', 'supported': true}, {'type': 'AllNamespaces', 'supported': false}]";

    JsonNode all =
        deployment(
            planner.planManifests(bundle(csv(ALL_MODES)), "operators", "og", List.of(), null));
    JsonNode own =
        deployment(planner.planManifests(bundle(csv(onlyOwn)), "operators", "og", List.of(), null));

    assertThat(all.at("/spec/template/metadata/annotations/olm.targetNamespaces").asText("absent"))
        .isEmpty();
    assertThat(own.at("/spec/template/metadata/annotations/olm.targetNamespaces").asText())
        .isEqualTo("operators");
  }

  @Test
  void ownSingleAndAllNamespacesAreCheckedAgainstTheirModes() {
    String onlyOwn =
        "[{'type': 'OwnNamespace', 'supported': true}, {'type': 'AllNamespaces', 'supported': false}]";
    List<JsonNode> manifests = bundle(csv(onlyOwn));

    assertThat(
            planner
                .planManifests(manifests, "operators", "og", List.of("operators"), null)
                .succeeded())
        .isTrue();
    assertThat(planner.planManifests(manifests, "operators", "og", List.of(""), null).message())
        .isEqualTo(
            "AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces");
    assertThat(
            planner.planManifests(manifests, "operators", "og", List.of("other"), null).message())
        .isEqualTo(
            "SingleNamespace InstallModeType not supported, cannot configure to watch one namespace");
  }

  @Test
  void duplicateInstallModesAreInvalidInstallModes() {
    String duplicated =
        "[{'type': 'OwnNamespace', 'supported': true}, {'type': 'OwnNamespace', 'supported': false}]";
    InstallPlanResult r =
        planner.planManifests(
            bundle(csv(duplicated)), "operators", "og", List.of("operators"), null);
    assertThat(r.reason()).isEqualTo("InvalidInstallModes");
    assertThat(r.message()).startsWith("InstallMode list contains duplicates");
  }

  @Test
  void missingOrUnknownInstallStrategyIsInvalidInstallStrategy() {
    ObjectNode noStrategy = csv(ALL_MODES);
    ((ObjectNode) noStrategy.path("spec")).remove("install");
    ObjectNode helm = csv(ALL_MODES);
    ((ObjectNode) helm.path("spec").path("install")).put("strategy", "helm");
    ObjectNode noContainers = csv(ALL_MODES);
    ((ObjectNode)
            noContainers
                .path("spec")
                .path("install")
                .path("spec")
                .path("deployments")
                .get(0)
                .path("spec"))
        .remove("template");

    for (ObjectNode bad : List.of(noStrategy, helm, noContainers)) {
      InstallPlanResult r =
          planner.planManifests(bundle(bad), "operators", "og", List.of(""), null);
      assertThat(r.reason()).isEqualTo("InvalidInstallStrategy");
      assertThat(r.message()).startsWith("install strategy invalid");
      assertThat(r.csv()).isPresent();
    }
  }

  @Test
  void bundleWithoutCsvIsRejected() {
    InstallPlanResult r =
        planner.planManifests(
            List.of(json("{'kind': 'Service'}")), "operators", "og", List.of(""), null);
    assertThat(r.succeeded()).isFalse();
    assertThat(r.reason()).isEqualTo("InvalidBundle");
  }

  @Test
  void aServiceAccountShippedInTheBundleReplacesTheGeneratedOne() {
    List<JsonNode> manifests = new java.util.ArrayList<>(bundle(csv(ALL_MODES)));
    manifests.add(
        json(
            "{'apiVersion': 'v1', 'kind': 'ServiceAccount', 'metadata': {'name': 'demo-sa'}, 'imagePullSecrets': [{'name': 'pull'}]}"));
    InstallPlanResult r = planner.planManifests(manifests, "operators", "og", List.of(""), null);

    List<JsonNode> accounts =
        r.objects().stream().filter(o -> o.path("kind").asText().equals("ServiceAccount")).toList();
    assertThat(accounts).hasSize(1);
    assertThat(accounts.get(0).has("imagePullSecrets")).isTrue();
  }

  @Test
  void randomlyMangledManifestsNeverThrow() {
    java.util.Random random = new java.util.Random(42);
    JsonNode[] replacements = {
      json("'x'"), json("7"), json("[]"), json("{}"), json("null"), json("[{'name': 1}]")
    };
    for (int i = 0; i < 500; i++) {
      List<JsonNode> manifests = bundle(csv(ALL_MODES));
      List<ObjectNode> containers = new java.util.ArrayList<>();
      collectObjects(manifests.get(1), containers);
      for (int m = 0; m < 1 + random.nextInt(4); m++) {
        ObjectNode target = containers.get(random.nextInt(containers.size()));
        List<String> fields = new java.util.ArrayList<>();
        target.fieldNames().forEachRemaining(fields::add);
        if (!fields.isEmpty()) {
          target.set(
              fields.get(random.nextInt(fields.size())),
              replacements[random.nextInt(replacements.length)].deepCopy());
        }
      }
      SubscriptionConfig config =
          SubscriptionConfig.fromJson(
              json(
                  "{'env': [{'name': 'A'}], 'affinity': {'nodeAffinity': {}},"
                      + " 'volumes': [{'name': 'v'}], 'volumeMounts': [{'name': 'v'}], 'tolerations': [{}], 'annotations': {'a': 'b'}}"));
      InstallPlanResult r =
          planner.planManifests(manifests, "operators", "og", List.of(""), config);
      assertThat(r.succeeded() || r.reason() != null).isTrue();
    }
  }

  private static void collectObjects(JsonNode node, List<ObjectNode> out) {
    if (node instanceof ObjectNode o) {
      out.add(o);
    }
    node.forEach(child -> collectObjects(child, out));
  }

  @Test
  void aBundleWhoseObjectsCannotBeDecodedIsAnInvalidBundleNotAnException() throws Exception {
    String deep =
        java.util.Base64.getEncoder()
            .encodeToString(
                ("kind: ClusterServiceVersion\nspec: " + "[".repeat(40) + "]".repeat(40) + "\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    String blob =
        "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v0.1.0\",\"properties\":["
            + "{\"type\":\"olm.bundle.object\",\"value\":{\"data\":\""
            + deep
            + "\"}}]}";
    FbcParser shallow = new FbcParser(new ParseLimits(1 << 20, 4 << 20, 20, 16));
    Bundle bundle =
        shallow
            .parse("c.json", blob.getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .bundles()
            .get(0);

    InstallPlanResult r = planner.plan(bundle, "operators", List.of(""), null);

    assertThat(r.succeeded()).isFalse();
    assertThat(r.reason()).isEqualTo("InvalidBundle");
    assertThat(r.message()).contains("undecodable olm.bundle.object").contains("nesting depth");
    assertThat(planner.plan(null, "operators", List.of(""), null).reason())
        .isEqualTo("InvalidBundle");
  }
}
