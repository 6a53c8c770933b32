package io.olmstead.agent.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SimulatedClusterTest {
  @Test
  void namesAndLabelsFollowTheDevModeScheme() {
    assertThat(SimulatedCluster.nameFor(1)).isEqualTo("sim-01");
    assertThat(SimulatedCluster.nameFor(12)).isEqualTo("sim-12");
    assertThat(SimulatedCluster.labelsFor(1))
        .containsEntry("env", "dev")
        .containsEntry("region", "us-east");
    assertThat(SimulatedCluster.labelsFor(2)).containsEntry("region", "eu-west");
    assertThat(SimulatedCluster.labelsFor(3)).containsEntry("region", "ap-south");
    assertThat(SimulatedCluster.labelsFor(4)).containsEntry("region", "us-east");
  }

  @Test
  void theKubeletStandInEstablishesCrdsRecordingTheStorageVersion() throws Exception {
    JsonNode crd =
        new ObjectMapper()
            .readTree(
                """
        {"spec":{"names":{"kind":"W","plural":"ws"},"versions":[{"name":"v1","storage":false},{"name":"v2","storage":true}]},
         "status":{"storedVersions":["v1"]}}""");
    JsonNode established = KubeletStandIn.establish(crd);
    assertThat(established.path("status").path("storedVersions").toString())
        .isEqualTo("[\"v1\",\"v2\"]");
    assertThat(established.path("status").path("conditions").toString()).contains("Established");
  }

  @Test
  void theKubeletStandInFailsDeploymentsOnFailingClusters() throws Exception {
    JsonNode deployment =
        new ObjectMapper().readTree("{\"metadata\":{\"generation\":3},\"spec\":{\"replicas\":1}}");
    assertThat(KubeletStandIn.rollOut(deployment, 3, true).toString())
        .contains("ProgressDeadlineExceeded");
    assertThat(
            KubeletStandIn.rollOut(deployment, 3, false)
                .path("status")
                .path("observedGeneration")
                .asLong())
        .isEqualTo(3);
  }
}
