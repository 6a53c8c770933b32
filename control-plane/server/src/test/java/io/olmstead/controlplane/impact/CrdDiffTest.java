package io.olmstead.controlplane.impact;

import static io.olmstead.controlplane.impact.Manifests.crd;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CrdDiffTest {
  private static final String V1 =
      "{'name':'v1','served':true,'storage':true,'schema':{'openAPIV3Schema':"
          + "{'type':'object','properties':{'spec':{'type':'object','properties':{'size':{'type':'integer'}}}}}}}";
  private static final String V1_STRING_SIZE =
      "{'name':'v1','served':true,'storage':true,'schema':{'openAPIV3Schema':"
          + "{'type':'object','properties':{'spec':{'type':'object','properties':{'size':{'type':'string'}}}}}}}";
  private static final String V1_MORE =
      "{'name':'v1','served':true,'storage':true,'schema':{'openAPIV3Schema':"
          + "{'type':'object','properties':{'spec':{'type':'object','properties':{'size':{'type':'integer'},"
          + "'color':{'type':'string'}}}}}}}";
  private static final String V2 =
      "{'name':'v2','served':true,'storage':false,'schema':{'openAPIV3Schema':"
          + "{'type':'object'}}}";
  private static final String V1_OLD =
      "{'name':'v1alpha1','served':true,'storage':false,'schema':{'openAPIV3Schema':"
          + "{'type':'object'}}}";

  @Test
  void namesAddedAndRemovedCrdsWithTheirVersions() {
    CrdDiff.Result r =
        CrdDiff.diff(
            Map.of("olds.x.io", crd("olds.x.io", "[" + V1 + "]")),
            Map.of("news.x.io", crd("news.x.io", "[" + V1 + "," + V2 + "]")),
            ImpactLimits.DEFAULT);
    assertThat(r.json().getJsonArray("added").getJsonObject(0).getJsonArray("versions"))
        .containsExactly("v1", "v2");
    assertThat(r.json().getJsonArray("removed").getJsonObject(0).getString("name"))
        .isEqualTo("olds.x.io");
    assertThat(r.affected()).containsExactly(Map.entry("olds.x.io", CrdDiff.BREAKING));
  }

  @Test
  void aRemovedVersionOrANarrowedTypeIsBreakingForExistingResources() {
    Map<String, JsonNode> before =
        Map.of("things.x.io", crd("things.x.io", "[" + V1_OLD + "," + V1 + "]"));
    Map<String, JsonNode> after =
        Map.of("things.x.io", crd("things.x.io", "[" + V1_STRING_SIZE + "," + V2 + "]"));
    CrdDiff.Result r = CrdDiff.diff(before, after, ImpactLimits.DEFAULT);
    JsonObject change = r.json().getJsonArray("changed").getJsonObject(0);
    assertThat(change.getJsonArray("versionsAdded")).containsExactly("v2");
    assertThat(change.getJsonArray("versionsRemoved")).containsExactly("v1alpha1");
    assertThat(change.getJsonArray("schemaChanged")).containsExactly("v1");
    assertThat(change.getBoolean("breaking")).isTrue();
    assertThat(change.getJsonArray("findings").stream().map(f -> ((JsonObject) f).getString("id")))
        .contains("VersionRemoved");
    assertThat(r.affected()).containsEntry("things.x.io", CrdDiff.BREAKING);
  }

  @Test
  void anAddedOptionalFieldIsASchemaChangeThatBreaksNothing() {
    CrdDiff.Result r =
        CrdDiff.diff(
            Map.of("things.x.io", crd("things.x.io", "[" + V1 + "]")),
            Map.of("things.x.io", crd("things.x.io", "[" + V1_MORE + "]")),
            ImpactLimits.DEFAULT);
    JsonObject change = r.json().getJsonArray("changed").getJsonObject(0);
    assertThat(change.getBoolean("breaking")).isFalse();
    assertThat(change.getJsonArray("schemaChanged")).containsExactly("v1");
    assertThat(change.containsKey("storageVersion")).isFalse();
    assertThat(r.affected()).containsExactly(Map.entry("things.x.io", CrdDiff.SCHEMA_CHANGED));
  }

  @Test
  void anUnchangedCrdIsNotListedAndAStorageMoveIsNamed() {
    String v2Storage = V2.replace("'storage':false", "'storage':true");
    String v1NotStorage = V1.replace("'storage':true", "'storage':false");
    CrdDiff.Result same =
        CrdDiff.diff(
            Map.of("a.x.io", crd("a.x.io", "[" + V1 + "]")),
            Map.of("a.x.io", crd("a.x.io", "[" + V1 + "]")),
            ImpactLimits.DEFAULT);
    assertThat(same.json().getJsonArray("changed")).isEmpty();
    CrdDiff.Result moved =
        CrdDiff.diff(
            Map.of("a.x.io", crd("a.x.io", "[" + V1 + "," + V2 + "]")),
            Map.of("a.x.io", crd("a.x.io", "[" + v1NotStorage + "," + v2Storage + "]")),
            ImpactLimits.DEFAULT);
    assertThat(
            moved.json().getJsonArray("changed").getJsonObject(0).getJsonObject("storageVersion"))
        .isEqualTo(new JsonObject().put("from", "v1").put("to", "v2"));
  }
}
