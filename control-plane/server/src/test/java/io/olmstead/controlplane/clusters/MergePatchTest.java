package io.olmstead.controlplane.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class MergePatchTest {

  @Test
  void nullRemovesAndValuesSetWithoutTouchingTheRest() {
    JsonObject labels = new JsonObject().put("env", "dev").put("old", "x").put("keep", "y");
    JsonObject merged =
        ClustersModule.merge(
            labels, new JsonObject().put("env", "prod").putNull("old").put("new", "z"));
    assertThat(merged.getMap()).containsOnlyKeys("env", "keep", "new").containsEntry("env", "prod");
    assertThat(labels.getString("old")).as("input untouched").isEqualTo("x");
  }

  @Test
  void refusesMoreThanTheLabelLimit() {
    JsonObject labels = new JsonObject();
    for (int i = 0; i < ClustersModule.MAX_LABELS; i++) {
      labels.put("k" + i, "v");
    }
    assertThatThrownBy(() -> ClustersModule.merge(labels, new JsonObject().put("one-more", "v")))
        .isInstanceOf(ApiException.class)
        .extracting(e -> ((ApiException) e).status())
        .isEqualTo(422);
  }
}
