package io.olmstead.controlplane.impact;

import static io.olmstead.controlplane.impact.Manifests.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class WebhookAndApiDiffTest {
  @Test
  void webhooksAreMatchedByGenerateNameAndChangedFieldsNamed() {
    var before =
        json(
            "{'spec':{'webhookdefinitions':["
                + "{'generateName':'vthing.x.io','type':'ValidatingAdmissionWebhook','failurePolicy':'Ignore','rules':[]},"
                + "{'generateName':'mthing.x.io','type':'MutatingAdmissionWebhook'}]}}");
    var after =
        json(
            "{'spec':{'webhookdefinitions':["
                + "{'generateName':'vthing.x.io','type':'ValidatingAdmissionWebhook','failurePolicy':'Fail','rules':[],"
                + "'timeoutSeconds':5},"
                + "{'generateName':'cthing.x.io','type':'ConversionWebhook','conversionCRDs':['things.x.io']}]}}");
    JsonObject diff = WebhookDiff.diff(before, after, 100);
    assertThat(diff.getJsonArray("added"))
        .containsExactly(
            new JsonObject()
                .put("name", "cthing.x.io")
                .put("type", "ConversionWebhook")
                .put("conversionCRDs", new JsonArray().add("things.x.io")));
    assertThat(diff.getJsonArray("removed"))
        .containsExactly(
            new JsonObject().put("name", "mthing.x.io").put("type", "MutatingAdmissionWebhook"));
    assertThat(diff.getJsonArray("changed").getJsonObject(0).getJsonArray("fields"))
        .containsExactly("failurePolicy", "timeoutSeconds");
    assertThat(diff.getJsonArray("changed").getJsonObject(0).getString("failurePolicy"))
        .isEqualTo("Fail");
  }

  @Test
  void ownedApisRemovedAndAddedAndWhatTheTargetNewlyRequires() {
    var before =
        json(
            "{'spec':{'customresourcedefinitions':{'owned':[{'name':'things.x.io','version':'v1alpha1',"
                + "'kind':'Thing'}],'required':[{'name':'keys.y.io','version':'v1','kind':'Key'}]}}}");
    var after =
        json(
            "{'spec':{'customresourcedefinitions':{'owned':[{'name':'things.x.io','version':'v1',"
                + "'kind':'Thing'}],'required':[{'name':'keys.y.io','version':'v1','kind':'Key'}]},"
                + "'apiservicedefinitions':{'required':[{'group':'metrics.k8s.io','version':'v1beta1','kind':'NodeMetrics'}]},"
                + "'nativeAPIs':[{'group':'route.openshift.io','version':'v1','kind':'Route'}]}}");
    JsonObject diff = ApiDiff.diff(before, after, 100);
    assertThat(diff.getJsonArray("removed"))
        .containsExactly(
            new JsonObject()
                .put("source", "crd")
                .put("name", "things.x.io")
                .put("version", "v1alpha1")
                .put("kind", "Thing"));
    assertThat(diff.getJsonArray("added").getJsonObject(0).getString("version")).isEqualTo("v1");
    assertThat(
            diff.getJsonArray("requires").stream()
                .map(
                    o ->
                        ((JsonObject) o).getString("kind")
                            + ":"
                            + ((JsonObject) o).getBoolean("new")))
        .containsExactlyInAnyOrder("NodeMetrics:true", "Key:false", "Route:true");
    assertThat(diff.getJsonArray("noLongerRequired")).isEmpty();
  }
}
