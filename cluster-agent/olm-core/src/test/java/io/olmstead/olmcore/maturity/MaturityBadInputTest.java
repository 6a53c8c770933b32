package io.olmstead.olmcore.maturity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Property;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Malformed objects, huge schemas and RBAC: findings or a bounded refusal, never an exception. */
class MaturityBadInputTest {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private final MaturityAnalyzer analyzer = new MaturityAnalyzer();

  @Test
  void undecodableBundleObjectsBecomeFindings() {
    List<Property> props = new ArrayList<>();
    props.add(
        new Property(
            "olm.package", F.objectNode().put("packageName", "p").put("version", "1.0.0")));
    for (String data :
        new String[] {
          "!!!not base64",
          Base64.getEncoder().encodeToString("[1,2]".getBytes()),
          Base64.getEncoder().encodeToString("kind: [unclosed".getBytes())
        }) {
      props.add(new Property("olm.bundle.object", F.objectNode().put("data", data)));
    }
    props.add(new Property("olm.bundle.object", F.objectNode()));
    MaturityReport r = analyzer.analyze(new Bundle("p", "p.v1", "img", props, List.of()), null);
    assertThat(r.findings())
        .filteredOn(f -> f.rule().equals("lifecycle/malformed-object"))
        .hasSize(4);
  }

  @Test
  void fieldsOfTheWrongTypeReadAsAbsent() {
    JsonNode csv =
        Manifests.yaml(
            """
            kind: ClusterServiceVersion
            metadata: {name: x, annotations: [1, 2]}
            spec:
              installModes: {a: b}
              customresourcedefinitions: {owned: "no"}
              install:
                spec:
                  permissions: [{rules: "all"}, {rules: [7, {verbs: {x: 1}}]}, 3]
                  deployments: [{name: d, spec: {template: {spec: {containers: [1, {name: c, securityContext: 5, resources: []}]}}}}, "d"]
            """);
    JsonNode crd =
        Manifests.yaml(
            "kind: CustomResourceDefinition\nmetadata: 5\nspec: {versions: [1, {schema: []}]}\n");
    MaturityReport r =
        analyzer.analyze(
            BundleView.of("x", List.of(csv, crd, F.textNode("s")), null, null, null, null));
    assertThat(r.breaks(PodSecurityRules.NON_ROOT)).isTrue();
    assertThat(r.breaks(WorkloadRules.RESOURCES)).isTrue();
    assertThat(r.breaks("lifecycle/malformed-object")).isTrue();
  }

  @Test
  void deepSchemaIsCheckedInPartWithoutStackOverflow() {
    ObjectNode root = F.objectNode().put("type", "object");
    ObjectNode cur = root;
    for (int i = 0; i < 100_000; i++) {
      ObjectNode next = F.objectNode().put("type", "object");
      cur.putObject("properties").set("p", next);
      cur = next;
    }
    JsonNode crd = Manifests.yaml(Manifests.goodCrd());
    ObjectNode version = (ObjectNode) crd.path("spec").path("versions").get(0);
    ((ObjectNode) version.path("schema").path("openAPIV3Schema").path("properties"))
        .set("spec", root);
    MaturityReport r =
        analyzer.analyze(
            BundleView.of(
                "x", List.of(Manifests.yaml(Manifests.goodCsv()), crd), null, null, true, null));
    assertThat(r.breaks(CrdRules.TOO_DEEP)).isTrue();
    assertThat(r.breaks(CrdRules.EXPOSES_RESOURCES)).isTrue();
  }

  @Test
  void schemasWithCyclesOrSharedSubtreesAreCheckedInPartQuickly() {
    // a cycle (a node holding itself) and a DAG whose paths double at every level: 2^60 paths
    ObjectNode cycle = F.objectNode().put("type", "object");
    cycle.putObject("properties").set("self", cycle);
    ObjectNode shared = F.objectNode().put("type", "string");
    for (int i = 0; i < 60; i++) {
      ObjectNode up = F.objectNode().put("type", "object");
      up.putObject("properties").set("a", shared);
      ((ObjectNode) up.path("properties")).set("b", shared);
      shared = up;
    }
    for (ObjectNode spec : List.of(cycle, shared)) {
      JsonNode crd = Manifests.yaml(Manifests.goodCrd());
      ObjectNode version = (ObjectNode) crd.path("spec").path("versions").get(0);
      ((ObjectNode) version.path("schema").path("openAPIV3Schema").path("properties"))
          .set("spec", spec);
      MaturityReport r =
          analyzer.analyze(
              BundleView.of(
                  "x", List.of(Manifests.yaml(Manifests.goodCsv()), crd), null, null, true, null));
      assertThat(r.breaks(CrdRules.TOO_DEEP)).isTrue();
      // the work is bounded by the node budget, not by the 2^60 paths (or the endless cycle) of the
      // schema
      SchemaSearch.Result search = SchemaSearch.find(spec, Set.of("resources"));
      assertThat(search.incomplete()).isTrue();
      assertThat(search.visited()).isLessThanOrEqualTo(SchemaSearch.MAX_NODES + 1);
    }
  }

  @Test
  void aYamlAliasBombInABundleObjectIsNotExpanded() {
    StringBuilder bomb =
        new StringBuilder(
            "kind: ConfigMap\nmetadata: {name: bomb}\na0: &a0 [\"lol\",\"lol\",\"lol\"]\n");
    for (int i = 1; i < 30; i++) {
      bomb.append("a")
          .append(i)
          .append(": &a")
          .append(i)
          .append(" [*a")
          .append(i - 1)
          .append(",*a")
          .append(i - 1)
          .append(",*a")
          .append(i - 1)
          .append("]\n");
    }
    List<Property> props = new ArrayList<>();
    props.add(
        new Property(
            "olm.package", F.objectNode().put("packageName", "p").put("version", "1.0.0")));
    props.add(
        new Property(
            "olm.bundle.object",
            F.objectNode()
                .put("data", Base64.getEncoder().encodeToString(bomb.toString().getBytes()))));
    Bundle bundle = new Bundle("p", "p.v1", "img", props, List.of());
    MaturityReport r = analyzer.analyze(bundle, null);
    assertThat(r.bundle()).isEqualTo("p.v1");
    // aliases are not expanded (3^30 strings otherwise): what the rules read stays the size of the
    // text
    assertThat(BundleView.of(bundle, null).objects().get(0).toString().length())
        .isLessThan(bomb.length() * 4);
  }

  @Test
  void thousandsOfRbacRulesAreBoundedAndFindingsCapped() {
    ObjectNode csv = (ObjectNode) Manifests.yaml(Manifests.goodCsv());
    ArrayNode rules =
        (ArrayNode)
            csv.path("spec").path("install").path("spec").path("permissions").get(0).path("rules");
    for (int i = 0; i < 20_000; i++) {
      rules.addObject().set("verbs", F.arrayNode().add("*"));
    }
    MaturityReport r = analyzer.analyze(BundleView.of("x", List.of(csv), null, null, true, null));
    assertThat(r.findings()).hasSize(Findings.MAX);
    assertThat(r.omittedFindings()).isPositive();
    // the work is bounded by the rule budget: one wildcard finding per rule read, no more rules
    // read than it allows
    assertThat(r.findings().size() + r.omittedFindings())
        .isLessThanOrEqualTo(RbacRules.MAX_RULES + 1)
        .isLessThan(20_000);
    assertThat(r.scores().get(Category.SECURITY)).isZero();
  }

  @Test
  void tooManyRbacRulesAreRefusedWithAFinding() {
    ObjectNode csv = (ObjectNode) Manifests.yaml(Manifests.goodCsv());
    ArrayNode rules =
        (ArrayNode)
            csv.path("spec").path("install").path("spec").path("permissions").get(0).path("rules");
    for (int i = 0; i < RbacRules.MAX_RULES + 10; i++) {
      rules.addObject().set("verbs", F.arrayNode().add("get"));
    }
    assertThat(
            analyzer
                .analyze(BundleView.of("x", List.of(csv), null, null, true, null))
                .breaks(RbacRules.TOO_MANY))
        .isTrue();
  }

  @Test
  void emptyBundleSaysEverythingWasUnchecked() {
    MaturityReport r = analyzer.analyze(BundleView.of("x", null, null, null, null, null));
    assertThat(r.breaks(MetadataRules.OPERATORHUB)).isTrue();
    assertThat(r.notChecked()).isNotEmpty();
  }
}
