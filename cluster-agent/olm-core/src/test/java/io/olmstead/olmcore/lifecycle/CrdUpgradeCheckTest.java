package io.olmstead.olmcore.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CrdUpgradeCheckTest {

  private static final String NAME = "testcrds.cluster.com";

  /** A v1 CRD; each version is "name:served:schemaJson" (schema may be empty for none). */
  private static JsonNode crd(List<String> storedVersions, String... versions) {
    StringBuilder vs = new StringBuilder();
    for (String v : versions) {
      String[] p = v.split(":", 3);
      if (vs.length() > 0) {
        vs.append(',');
      }
      vs.append("{'name':'")
          .append(p[0])
          .append("','served':")
          .append(p[1])
          .append(",'storage':false");
      if (p.length > 2 && !p[2].isEmpty()) {
        vs.append(",'schema':{'openAPIV3Schema':").append(p[2]).append('}');
      }
      vs.append('}');
    }
    StringBuilder stored = new StringBuilder();
    for (String s : storedVersions) {
      stored.append(stored.length() > 0 ? "," : "").append('\'').append(s).append('\'');
    }
    return Json.of(
        "{'apiVersion':'apiextensions.k8s.io/v1','kind':'CustomResourceDefinition',"
            + "'metadata':{'name':'"
            + NAME
            + "'},'spec':{'group':'cluster.com','names':{'kind':'testcrd',"
            + "'plural':'testcrds'},'scope':'Namespaced','versions':["
            + vs
            + "]},"
            + "'status':{'storedVersions':["
            + stored
            + "]}}");
  }

  private static JsonNode cr(String version, String name, String spec) {
    return Json.of(
        "{'apiVersion':'cluster.com/"
            + version
            + "','kind':'testcrd','metadata':{'name':'"
            + name
            + "','namespace':'ns1'},'spec':"
            + spec
            + "}");
  }

  private static String specSchema(String properties) {
    return "{'type':'object','required':['metadata','kind'],'properties':{'apiVersion':{'type':'integer'},"
        + "'kind':{'type':'integer'},'metadata':{'type':'string'},'spec':{'type':'object','properties':{"
        + properties
        + "}}}}";
  }

  private static final String MIN2 = specSchema("'scalar':{'type':'number','minimum':2}");
  private static final String MIN3 = specSchema("'scalar':{'type':'number','minimum':3}");

  @Test
  void rejectsRemovingAStoredVersion() {
    JsonNode existing = crd(List.of("v1alpha1", "v1"), "v1alpha1:true:", "v1:true:");
    JsonNode updated = crd(List.of(), "v1:true:", "v2:true:");
    CrdUpgradeResult result = CrdUpgradeCheck.check(existing, updated, List.of());
    assertThat(result.safe()).isFalse();
    assertThat(result.errors())
        .containsExactly(
            "risk of data loss updating \""
                + NAME
                + "\": new CRD removes version v1alpha1 that is listed as a stored version on the existing CRD");
  }

  @Test
  void allowsUnservingAStoredVersionThatIsStillDefined() {
    JsonNode existing = crd(List.of("v1alpha1"), "v1alpha1:true:");
    JsonNode updated = crd(List.of(), "v1alpha1:false:", "v1:true:");
    assertThat(CrdUpgradeCheck.check(existing, updated, List.of()).safe()).isTrue();
  }

  @Test
  void rejectsExistingResourcesTheNewSchemaIsTooRestrictiveFor() {
    JsonNode existing = crd(List.of("v1alpha1"), "v1alpha1:true:" + MIN2);
    JsonNode updated = crd(List.of("v1alpha1"), "v1alpha1:true:" + MIN3);
    CrdUpgradeResult result =
        CrdUpgradeCheck.check(
            existing,
            updated,
            List.of(
                cr("v1alpha1", "my-cr-1", "{'scalar':2}"), cr("v1alpha1", "ok", "{'scalar':4}")));
    assertThat(result.errors())
        .singleElement()
        .asString()
        .startsWith(
            "error validating existing CRs against new CRD's schema for \""
                + NAME
                + "\": "
                + "error validating cluster.com/v1alpha1, Kind=testcrd \"ns1/my-cr-1\": "
                + "updated validation is too restrictive: ")
        .contains("scalar")
        .contains("3")
        .doesNotContain("\"ns1/ok\"");
    assertThat(result.message()).contains(result.errors().get(0));
  }

  static Stream<Arguments> schemaCases() {
    String nullable =
        specSchema(
            "'ref':{'type':'object','nullable':true,'properties':{'name':{'type':'string'}}}");
    String notNullable =
        specSchema("'ref':{'type':'object','properties':{'name':{'type':'string'}}}");
    String intOrString =
        specSchema(
            "'port':{'x-kubernetes-int-or-string':true,"
                + "'anyOf':[{'type':'integer'},{'type':'string'}]}");
    String preserve =
        specSchema("'config':{'type':'object','x-kubernetes-preserve-unknown-fields':true}");
    String enumNullable = specSchema("'mode':{'type':'string','enum':['a','b'],'nullable':true}");
    String required =
        specSchema("'name':{'type':'string'}")
            .replace("'spec':{'type':'object',", "'spec':{'type':'object','required':['name'],");
    String dateTime = specSchema("'at':{'type':'string','format':'date-time'}");
    String badPattern = specSchema("'p':{'type':'string','pattern':'(unclosed'}");
    String rePattern = specSchema("'p':{'type':'string','pattern':'^[a-z[\\\\]]+$'}");
    return Stream.of(
        Arguments.of("nullable accepts null", nullable, "{'ref':null}", true),
        Arguments.of("non-nullable object rejects null", notNullable, "{'ref':null}", false),
        Arguments.of("int-or-string accepts an integer", intOrString, "{'port':8080}", true),
        Arguments.of("int-or-string accepts a string", intOrString, "{'port':'50%'}", true),
        Arguments.of("int-or-string rejects a boolean", intOrString, "{'port':true}", false),
        Arguments.of(
            "preserve-unknown-fields keeps anything",
            preserve,
            "{'config':{'a':{'b':[1,'x']}}}",
            true),
        Arguments.of(
            "unknown fields are pruned, not rejected",
            notNullable,
            "{'other':1,'ref':{'x':2}}",
            true),
        Arguments.of("nullable enum accepts null", enumNullable, "{'mode':null}", true),
        Arguments.of("nullable enum still checks values", enumNullable, "{'mode':'c'}", false),
        Arguments.of("new required field rejects old resources", required, "{}", false),
        Arguments.of(
            "root metadata, apiVersion and kind are left to the API server",
            required,
            "{'name':'x'}",
            true),
        Arguments.of("formats are not asserted", dateTime, "{'at':'yesterday'}", true),
        Arguments.of(
            "a pattern Java cannot compile is dropped, not turned into a block",
            badPattern,
            "{'p':'x'}",
            true),
        Arguments.of("an RE2 pattern is enforced", rePattern, "{'p':'a b'}", false),
        Arguments.of("an RE2 pattern accepts what RE2 accepts", rePattern, "{'p':'a[b]'}", true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemaCases")
  void convertsStructuralSchemaSemantics(String name, String schema, String spec, boolean valid) {
    JsonNode updated = crd(List.of("v1"), "v1:true:" + schema);
    String error =
        CrdUpgradeCheck.invalidExistingResources(null, updated, List.of(cr("v1", "r", spec)));
    if (valid) {
      assertThat(error).isNull();
    } else {
      assertThat(error)
          .startsWith(
              "error validating existing CRs against new CRD's schema for \"" + NAME + "\"");
    }
  }

  @Test
  void skipsResourcesOfVersionsNotServedBeforeOrNotServedByTheNewCrd() {
    JsonNode existing = crd(List.of("v1"), "v1alpha1:false:", "v1:true:", "v2:true:");
    JsonNode updated =
        crd(List.of("v1"), "v1alpha1:true:" + MIN3, "v1:true:" + MIN2, "v2:false:" + MIN3);
    List<JsonNode> resources =
        List.of(
            cr("v1alpha1", "old", "{'scalar':0}"),
            cr("v2", "unserved", "{'scalar':0}"),
            cr("v1", "fine", "{'scalar':2}"));
    assertThat(CrdUpgradeCheck.check(existing, updated, resources).safe()).isTrue();
  }

  @Test
  void skipsResourcesOfAnotherGroupOrKind() {
    JsonNode updated = crd(List.of("v1"), "v1:true:" + MIN3);
    JsonNode otherGroup =
        Json.of(
            "{'apiVersion':'other.com/v1','kind':'testcrd','metadata':{'name':'a'},"
                + "'spec':{'scalar':0}}");
    JsonNode otherKind =
        Json.of(
            "{'apiVersion':'cluster.com/v1','kind':'Other','metadata':{'name':'a'},"
                + "'spec':{'scalar':0}}");
    assertThat(
            CrdUpgradeCheck.invalidExistingResources(null, updated, List.of(otherGroup, otherKind)))
        .isNull();
  }

  @Test
  void readsV1beta1TopLevelValidation() {
    JsonNode updated =
        Json.of(
            "{'apiVersion':'apiextensions.k8s.io/v1beta1','kind':'CustomResourceDefinition',"
                + "'metadata':{'name':'"
                + NAME
                + "'},'spec':{'group':'cluster.com','version':'v1alpha1',"
                + "'names':{'kind':'testcrd','plural':'testcrds'},'validation':{'openAPIV3Schema':"
                + MIN3
                + "}}}");
    String error =
        CrdUpgradeCheck.invalidExistingResources(
            null, updated, List.of(cr("v1alpha1", "x", "{'scalar':2}")));
    assertThat(error).contains("error validating cluster.com/v1alpha1, Kind=testcrd \"ns1/x\"");
  }

  @Test
  void listsEveryFailingResource() {
    JsonNode updated = crd(List.of("v1"), "v1:true:" + MIN3);
    String error =
        CrdUpgradeCheck.invalidExistingResources(
            null,
            updated,
            List.of(cr("v1", "a", "{'scalar':1}"), cr("v1", "b", "{'scalar':'no'}")));
    assertThat(error).contains("\"ns1/a\"").contains("\"ns1/b\"");
  }

  @Test
  void toleratesMalformedInput() {
    JsonNode updated = crd(List.of("v1"), "v1:true:" + MIN3);
    List<JsonNode> odd = new java.util.ArrayList<>();
    odd.add(null);
    odd.add(Json.of("'text'"));
    odd.add(Json.of("{'apiVersion':7}"));
    assertThat(CrdUpgradeCheck.check(Json.of("[]"), updated, odd).safe()).isTrue();
    assertThat(CrdUpgradeCheck.check(null, null, null).safe()).isTrue();
    assertThat(
            CrdUpgradeCheck.check(
                    Json.of("{'status':{'storedVersions':['v1']}}"), Json.of("{}"), List.of())
                .errors())
        .hasSize(1);
  }

  @Test
  void firstInstallWithoutResourcesIsSafe() {
    CrdUpgradeResult result =
        CrdUpgradeCheck.check(null, crd(List.of(), "v1:true:" + MIN3), List.of());
    assertThat(result.safe()).isTrue();
    assertThat(result.message()).isEmpty();
  }
}
