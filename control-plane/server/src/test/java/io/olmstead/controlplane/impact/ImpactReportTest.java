package io.olmstead.controlplane.impact;

import static io.olmstead.controlplane.impact.Manifests.crd;
import static io.olmstead.controlplane.impact.Manifests.csv;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.ClusterVersion;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ImpactReportTest {
  private static final String V1 = "[{'name':'v1','served':true,'storage':true}]";
  private static final BundleManifests FROM =
      new BundleManifests(
          "op.v1.0.0",
          "1.0.0",
          null,
          csv("[]", "[]"),
          Map.of("gone.x.io", crd("gone.x.io", V1), "kept.x.io", crd("kept.x.io", V1)),
          null);
  private static final BundleManifests TO =
      new BundleManifests(
          "op.v2.0.0",
          "2.0.0",
          "4.15",
          csv("[]", "[{'apiGroups':[''],'resources':['nodes'],'verbs':['get']}]"),
          Map.of("kept.x.io", crd("kept.x.io", V1)),
          null);
  private static final JsonArray PATH =
      new JsonArray()
          .add(new JsonObject().put("bundle", "op.v1.5.0").put("version", "1.5.0"))
          .add(new JsonObject().put("bundle", "op.v2.0.0").put("version", "2.0.0"));

  private static ImpactReport.ClusterInput cluster(
      String name, String openShift, long goneResources) {
    return new ImpactReport.ClusterInput(
        name,
        "canary",
        "1.0.0",
        PATH,
        openShift == null ? null : new ClusterVersion(openShift, "agent"),
        Map.of("gone.x.io", goneResources, "kept.x.io", 7L),
        "Pass");
  }

  private static JsonObject report(List<ImpactReport.ClusterInput> clusters, ImpactLimits limits) {
    Map<String, Transition> transitions = Map.of("1.0.0", Transition.of("1.0.0", FROM, TO, limits));
    return ImpactReport.build(
        "2.0.0",
        TO,
        transitions,
        clusters,
        c ->
            c.equals("a")
                ? new JsonObject().put("openNow", true)
                : new JsonObject().put("openNow", false).put("nextOpening", null),
        EdgeRisks.NONE,
        limits);
  }

  @Test
  void eachClusterSaysItsPathTheResourcesTheChangeTouchesItsOpenShiftEffectAndWindow() {
    JsonObject r =
        report(List.of(cluster("a", "4.15.2", 3), cluster("b", null, 0)), ImpactLimits.DEFAULT);
    JsonObject a = r.getJsonArray("clusters").getJsonObject(0);
    assertThat(a.getInteger("hops")).isEqualTo(2);
    assertThat(a.getJsonObject("customResources").getJsonArray("affected"))
        .containsExactly(
            new JsonObject()
                .put("crd", "gone.x.io")
                .put("count", 3L)
                .put("change", CrdDiff.BREAKING));
    assertThat(a.getJsonObject("openShift").getString("effect")).isEqualTo(OpenShiftEffect.BLOCKS);
    assertThat(a.getJsonArray("riskyEdges")).isEmpty();
    JsonObject totals = r.getJsonObject("totals");
    assertThat(totals.getJsonObject("customResources").getLong("affected")).isEqualTo(3L);
    assertThat(totals.getJsonObject("customResources").getInteger("clustersAffected")).isEqualTo(1);
    assertThat(totals.getJsonObject("rbac").getInteger("clustersGainingPermissions")).isEqualTo(2);
    assertThat(totals.getJsonObject("openShift").getMap())
        .containsEntry("BlocksUpgrade", 1)
        .containsEntry("NotOpenShift", 1);
    assertThat(totals.getJsonObject("windows").getMap())
        .containsEntry("openNow", 1)
        .containsEntry("noWindow", 1);
    assertThat(totals.getJsonObject("riskyEdges").getBoolean("evaluated")).isFalse();
    assertThat(r.getJsonArray("transitions").getJsonObject(0).getInteger("clusters")).isEqualTo(2);
  }

  @Test
  void clustersPastTheLimitAreCountedButNotListed() {
    JsonObject r =
        report(
            List.of(cluster("a", null, 1), cluster("b", null, 1), cluster("c", null, 1)),
            new ImpactLimits(10, 5, 2));
    assertThat(r.getJsonArray("clusters")).hasSize(2);
    assertThat(r.getBoolean("clustersTruncated")).isTrue();
    assertThat(r.getJsonObject("totals").getInteger("clusters")).isEqualTo(3);
    assertThat(r.getJsonObject("totals").getJsonObject("customResources").getLong("affected"))
        .isEqualTo(3L);
  }

  @Test
  void aBundleWhoseObjectsCannotBeHadIsNamedNotDiffed() {
    BundleManifests missing =
        BundleManifests.unavailable("op.v2.0.0", "2.0.0", null, "image not unpacked yet");
    Transition t = Transition.of("1.0.0", FROM, missing, ImpactLimits.DEFAULT);
    assertThat(t.json().getString("unavailable")).isEqualTo("image not unpacked yet");
    assertThat(t.json().containsKey("rbac")).isFalse();
    assertThat(t.affectedCrds()).isEmpty();
  }
}
