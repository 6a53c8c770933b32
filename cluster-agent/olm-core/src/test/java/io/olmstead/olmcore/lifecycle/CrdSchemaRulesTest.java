package io.olmstead.olmcore.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.lifecycle.CrdSchemaFinding.Severity;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CrdSchemaRulesTest {

  /** A v1 CRD with one version v1 whose spec schema is {@code specSchema} (single-quoted JSON). */
  private static JsonNode crd(String scope, String specSchema) {
    return Json.of(
        "{'apiVersion':'apiextensions.k8s.io/v1','kind':'CustomResourceDefinition',"
            + "'metadata':{'name':'widgets.example.com'},'spec':{'group':'example.com','scope':'"
            + scope
            + "','names':{'kind':'Widget','plural':'widgets'},'versions':[{'name':'v1','served':true,"
            + "'storage':true,'schema':{'openAPIV3Schema':{'type':'object','properties':{'spec':"
            + specSchema
            + "}}}}]}}");
  }

  private static JsonNode crd(String specSchema) {
    return crd("Namespaced", specSchema);
  }

  static Stream<Arguments> changes() {
    return Stream.of(
        Arguments.of(
            "new required field",
            "{'type':'object','properties':{'a':{'type':'string'}}}",
            "{'type':'object','required':['a'],'properties':{'a':{'type':'string'}}}",
            "RequiredFieldAdded",
            Severity.BREAKING,
            "v1:.spec.a"),
        Arguments.of(
            "removed field",
            "{'type':'object','properties':{'a':{'type':'string'},'b':{}}}",
            "{'type':'object','properties':{'a':{'type':'string'}}}",
            "FieldRemoved",
            Severity.BREAKING,
            "v1:.spec.b"),
        Arguments.of(
            "type change",
            "{'type':'object','properties':{'n':{'type':'integer'}}}",
            "{'type':'object','properties':{'n':{'type':'string'}}}",
            "TypeChanged",
            Severity.BREAKING,
            "v1:.spec.n"),
        Arguments.of(
            "enum value removed",
            "{'type':'string','enum':['A','B','C']}",
            "{'type':'string','enum':['A','C']}",
            "EnumValueRemoved",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "enum added",
            "{'type':'string'}",
            "{'type':'string','enum':['A']}",
            "EnumAdded",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "default added",
            "{'type':'integer'}",
            "{'type':'integer','default':3}",
            "DefaultAdded",
            Severity.WARNING,
            "v1:.spec"),
        Arguments.of(
            "default changed",
            "{'type':'integer','default':1}",
            "{'type':'integer','default':3}",
            "DefaultChanged",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "default removed",
            "{'type':'integer','default':1}",
            "{'type':'integer'}",
            "DefaultRemoved",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "minimum raised",
            "{'type':'integer','minimum':1}",
            "{'type':'integer','minimum':2}",
            "MinimumRaised",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "maximum added",
            "{'type':'integer'}",
            "{'type':'integer','maximum':10}",
            "MaximumLowered",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "maximum lowered",
            "{'type':'number','maximum':10.5}",
            "{'type':'number','maximum':10.25}",
            "MaximumLowered",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "minLength raised",
            "{'type':'string','minLength':0}",
            "{'type':'string','minLength':1}",
            "MinLengthRaised",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "maxLength lowered",
            "{'type':'string','maxLength':64}",
            "{'type':'string','maxLength':63}",
            "MaxLengthLowered",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "minItems in items of a list",
            "{'type':'array','items':{'type':'array','items':{'type':'string'}}}",
            "{'type':'array','items':{'type':'array','minItems':1,'items':{'type':'string'}}}",
            "MinItemsRaised",
            Severity.BREAKING,
            "v1:.spec[*]"),
        Arguments.of(
            "maxItems lowered",
            "{'type':'array','maxItems':5}",
            "{'type':'array','maxItems':4}",
            "MaxItemsLowered",
            Severity.BREAKING,
            "v1:.spec"),
        Arguments.of(
            "minProperties in map values",
            "{'type':'object','additionalProperties':{'type':'object'}}",
            "{'type':'object','additionalProperties':{'type':'object','minProperties':1}}",
            "MinPropertiesRaised",
            Severity.BREAKING,
            "v1:.spec{*}"),
        Arguments.of(
            "maxProperties lowered",
            "{'type':'object','maxProperties':3}",
            "{'type':'object','maxProperties':2}",
            "MaxPropertiesLowered",
            Severity.BREAKING,
            "v1:.spec"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("changes")
  void namesEachChange(
      String name, String before, String after, String id, Severity severity, String path) {
    assertThat(CrdSchemaRules.compare(crd(before), crd(after)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo(id);
              assertThat(f.severity()).isEqualTo(severity);
              assertThat(f.path()).isEqualTo(path);
              assertThat(f.message()).isNotBlank().contains("version v1");
            });
  }

  static Stream<Arguments> safeChanges() {
    return Stream.of(
        Arguments.of(
            "identical",
            "{'type':'integer','minimum':1,'default':2}",
            "{'type':'integer','minimum':1,'default':2}"),
        Arguments.of(
            "new optional field",
            "{'type':'object','properties':{}}",
            "{'type':'object','properties':{'x':{'type':'string'}}}"),
        Arguments.of(
            "looser bounds",
            "{'type':'string','minLength':2,'maxLength':5}",
            "{'type':'string','minLength':1,'maxLength':9}"),
        Arguments.of("bound removed", "{'type':'integer','maximum':3}", "{'type':'integer'}"),
        Arguments.of(
            "enum value added",
            "{'type':'string','enum':['A']}",
            "{'type':'string','enum':['A','B']}"),
        Arguments.of("enum removed", "{'type':'string','enum':['A']}", "{'type':'string'}"),
        Arguments.of(
            "required dropped",
            "{'type':'object','required':['a'],'properties':{'a':{}}}",
            "{'type':'object','properties':{'a':{}}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("safeChanges")
  void findsNothingInSafeChanges(String name, String before, String after) {
    assertThat(CrdSchemaRules.compare(crd(before), crd(after))).isEmpty();
  }

  @Test
  void namesAScopeChange() {
    String spec = "{'type':'object'}";
    assertThat(CrdSchemaRules.compare(crd("Namespaced", spec), crd("Cluster", spec)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo("ScopeChanged");
              assertThat(f.path()).isEqualTo("spec.scope");
              assertThat(f.message()).contains("Namespaced").contains("Cluster");
            });
  }

  @Test
  void namesARemovedVersionAndComparesTheOthers() {
    ObjectNode before = (ObjectNode) crd("{'type':'integer'}");
    ObjectNode extra = before.withArray("/spec/versions").addObject();
    extra.put("name", "v1alpha1").put("served", true).put("storage", false);
    JsonNode after = crd("{'type':'string'}");
    assertThat(CrdSchemaRules.compare(before, after))
        .extracting(CrdSchemaFinding::id, CrdSchemaFinding::path)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("TypeChanged", "v1:.spec"),
            org.assertj.core.groups.Tuple.tuple("VersionRemoved", "spec.versions[v1alpha1]"));
  }

  @Test
  void stopsAtTheDepthBoundWithAWarning() {
    ObjectNode deepOld = JsonNodeFactory.instance.objectNode();
    ObjectNode deepNew = JsonNodeFactory.instance.objectNode();
    ObjectNode o = deepOld;
    ObjectNode n = deepNew;
    for (int i = 0; i < 10_000; i++) { // far past the bound: recursion must not overflow the stack
      o = o.put("type", "object").putObject("properties").putObject("x");
      n = n.put("type", "object").putObject("properties").putObject("x");
    }
    o.put("type", "integer");
    n.put("type", "string"); // a change below the bound is not reached
    ObjectNode before = (ObjectNode) crd("{}");
    ObjectNode after = (ObjectNode) crd("{}");
    ((ObjectNode) before.at("/spec/versions/0/schema/openAPIV3Schema/properties"))
        .set("spec", deepOld);
    ((ObjectNode) after.at("/spec/versions/0/schema/openAPIV3Schema/properties"))
        .set("spec", deepNew);
    List<CrdSchemaFinding> findings = CrdSchemaRules.compare(before, after);
    assertThat(findings)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo("SchemaNotFullyCompared");
              assertThat(f.severity()).isEqualTo(Severity.WARNING);
            });
  }

  @Test
  void stopsAtTheNodeBoundOnWideSchemas() {
    StringBuilder props = new StringBuilder();
    for (int i = 0; i < CrdSchemaRules.MAX_NODES + 10; i++) {
      props.append(i == 0 ? "" : ",").append("'f").append(i).append("':{'type':'string'}");
    }
    String schema = "{'type':'object','properties':{" + props + "}}";
    assertThat(CrdSchemaRules.compare(crd(schema), crd(schema)))
        .extracting(CrdSchemaFinding::id)
        .containsExactly("SchemaNotFullyCompared");
  }

  @Test
  void firstInstallHasNoFindings() {
    assertThat(CrdSchemaRules.compare(null, crd("{}"))).isEmpty();
  }
}
