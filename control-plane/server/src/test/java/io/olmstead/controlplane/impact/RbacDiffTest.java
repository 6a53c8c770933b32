package io.olmstead.controlplane.impact;

import static io.olmstead.controlplane.impact.Manifests.csv;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class RbacDiffTest {
  @Test
  void namesTheVerbsAddedAndRemovedPerGrantAndScope() {
    var before =
        csv(
            "[{'apiGroups':[''],'resources':['configmaps'],'verbs':['get','list']}]",
            "[{'apiGroups':['coordination.k8s.io'],'resources':['leases'],'verbs':['get']}]");
    var after =
        csv(
            "[{'apiGroups':[''],'resources':['configmaps'],'verbs':['get','list','delete']}]",
            "[{'apiGroups':[''],'resources':['nodes'],'verbs':['get','watch']}]");
    JsonObject diff = RbacDiff.diff(before, after, 100);
    assertThat(diff.getJsonArray("added"))
        .containsExactly(
            grant("cluster", "", "nodes", "get", "watch"), // cluster-scoped grants first
            grant("namespace", "", "configmaps", "delete"));
    assertThat(diff.getJsonArray("removed"))
        .containsExactly(grant("cluster", "coordination.k8s.io", "leases", "get"));
    assertThat(diff.getBoolean("clusterScopedChanged")).isTrue();
  }

  @Test
  void aRuleSplitDifferentlyOrMovedToAnotherServiceAccountIsNoChange() {
    var before =
        csv(
            "[{'apiGroups':['','apps'],'resources':['pods','deployments'],'verbs':['get','list']}]",
            "[]");
    var after =
        Manifests.json(
            "{'spec':{'install':{'spec':{'permissions':["
                + "{'serviceAccountName':'a','rules':[{'apiGroups':[''],'resources':['pods','deployments'],'verbs':['get']}]},"
                + "{'serviceAccountName':'b','rules':[{'apiGroups':['apps','',''],'resources':['deployments','pods'],"
                + "'verbs':['list','get']}]}]}}}}");
    JsonObject diff = RbacDiff.diff(before, after, 100);
    assertThat(diff.getJsonArray("added")).isEmpty();
    assertThat(diff.getJsonArray("removed")).isEmpty();
    assertThat(diff.getBoolean("clusterScopedChanged")).isFalse();
  }

  @Test
  void resourceNamesAndNonResourceUrlsAreGrantsOfTheirOwn() {
    var before = csv("[]", "[{'nonResourceURLs':['/metrics'],'verbs':['get']}]");
    var after =
        csv(
            "[{'apiGroups':[''],'resources':['serviceaccounts/token'],'resourceNames':['cm'],"
                + "'verbs':['create']}]",
            "[]");
    JsonObject diff = RbacDiff.diff(before, after, 100);
    assertThat(diff.getJsonArray("added"))
        .containsExactly(
            new JsonObject()
                .put("scope", "namespace")
                .put("apiGroup", "")
                .put("resource", "serviceaccounts/token")
                .put("resourceNames", new JsonArray().add("cm"))
                .put("verbs", new JsonArray().add("create")));
    assertThat(diff.getJsonArray("removed"))
        .containsExactly(
            new JsonObject()
                .put("scope", "cluster")
                .put("nonResourceURL", "/metrics")
                .put("verbs", new JsonArray().add("get")));
  }

  @Test
  void nothingInstalledMeansEveryGrantIsAdded() {
    JsonObject diff =
        RbacDiff.diff(
            null, csv("[{'apiGroups':[''],'resources':['secrets'],'verbs':['*']}]", "[]"), 100);
    assertThat(diff.getJsonArray("added")).containsExactly(grant("namespace", "", "secrets", "*"));
  }

  @Test
  void listsAreCutAtTheLimitAndSaySo() {
    var after = csv("[{'apiGroups':[''],'resources':['a','b','c','d'],'verbs':['get']}]", "[]");
    JsonObject diff = RbacDiff.diff(null, after, 2);
    assertThat(diff.getJsonArray("added")).hasSize(2);
    assertThat(diff.getBoolean("addedTruncated")).isTrue();
    assertThat(diff.getInteger("addedCount")).isEqualTo(4);
    assertThat(diff.containsKey("removedTruncated")).isFalse();
  }

  static JsonObject grant(String scope, String group, String resource, String... verbs) {
    return new JsonObject()
        .put("scope", scope)
        .put("apiGroup", group)
        .put("resource", resource)
        .put("verbs", new JsonArray(List.of((Object[]) verbs)));
  }
}
