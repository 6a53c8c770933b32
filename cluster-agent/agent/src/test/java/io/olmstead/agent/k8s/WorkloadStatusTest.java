package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.olmstead.olmcore.lifecycle.DeploymentState;
import org.junit.jupiter.api.Test;

class WorkloadStatusTest {
  private static JsonNode json(String text) throws Exception {
    return new ObjectMapper().readTree(text);
  }

  @Test
  void availableOnlyWhenTheControllerSawTheCurrentGeneration() throws Exception {
    JsonNode current =
        json(
            """
        {"metadata":{"generation":2},"status":{"observedGeneration":2,"conditions":[{"type":"Available","status":"True"}]}}""");
    JsonNode stale =
        json(
            """
        {"metadata":{"generation":3},"status":{"observedGeneration":2,"conditions":[{"type":"Available","status":"True"}]}}""");
    assertThat(WorkloadStatus.deployment("d", current)).isEqualTo(DeploymentState.available("d"));
    assertThat(WorkloadStatus.deployment("d", stale)).isEqualTo(DeploymentState.progressing("d"));
  }

  @Test
  void progressDeadlineExceededIsAFailure() throws Exception {
    JsonNode failed =
        json(
            """
        {"metadata":{"generation":1},"status":{"observedGeneration":1,"conditions":[
          {"type":"Available","status":"False"},{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded"}]}}""");
    assertThat(WorkloadStatus.deployment("d", failed))
        .isEqualTo(DeploymentState.deadlineExceeded("d"));
  }

  @Test
  void aMissingDeploymentIsProgressing() {
    assertThat(WorkloadStatus.deployment("d", null)).isEqualTo(DeploymentState.progressing("d"));
  }

  @Test
  void crdIsEstablishedOnlyWithTheCondition() throws Exception {
    assertThat(
            WorkloadStatus.established(
                json(
                    "{\"status\":{\"conditions\":[{\"type\":\"Established\",\"status\":\"True\"}]}}")))
        .isTrue();
    assertThat(WorkloadStatus.established(json("{\"status\":{}}"))).isFalse();
    assertThat(WorkloadStatus.established(null)).isFalse();
  }
}
