package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class RolloutViewTest {
  @Test
  void barsFillWithSucceededThenFailedThenTheRest() {
    assertThat(RolloutView.bar(0, 0, 4)).isEqualTo("[--------------------]");
    assertThat(RolloutView.bar(2, 0, 4)).isEqualTo("[##########----------]");
    assertThat(RolloutView.bar(1, 1, 4)).isEqualTo("[#####!!!!!----------]");
    assertThat(RolloutView.bar(4, 0, 4)).isEqualTo("[####################]");
    // one failure among many still shows
    assertThat(RolloutView.bar(0, 1, 1000)).isEqualTo("[!-------------------]");
    assertThat(RolloutView.bar(0, 0, 0)).isEqualTo("[--------------------]");
  }

  @Test
  void rendersAHeadlineAndOneBarPerWave() throws Exception {
    JsonNode rollout = Api.JSON.readTree("{\"id\":\"ro-1\",\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\","
        + "\"state\":\"Progressing\",\"counts\":{\"clusters\":3,\"succeeded\":1,\"failed\":1},\"waves\":["
        + "{\"name\":\"canary\",\"clusters\":1,\"succeeded\":1,\"state\":\"Succeeded\"},"
        + "{\"name\":\"wave-1\",\"clusters\":2,\"succeeded\":0,\"failed\":1,\"state\":\"Open\"}]}");
    assertThat(RolloutView.render(rollout)).isEqualTo(
        "Rollout ro-1: etcd -> 0.9.4   Progressing   1/3 succeeded, 1 failed\n"
      + "  canary  [####################]    1/1     Succeeded\n"
      + "  wave-1  [!!!!!!!!!!----------]    0/2     1 failed  Open\n");
  }

  @Test
  void onlyARolloutEndedBadlyExitsNonZero() throws Exception {
    for (String state : new String[] {"Failed", "Aborted", "RolledBack"}) {
      assertThat(RolloutView.exitCode(Api.JSON.readTree("{\"state\":\"" + state + "\"}")))
          .isEqualTo(ExitCodes.CONFLICT_OR_FAILED);
    }
    for (String state : new String[] {"Succeeded", "Progressing", "Paused"}) {
      assertThat(RolloutView.exitCode(Api.JSON.readTree("{\"state\":\"" + state + "\"}"))).isEqualTo(ExitCodes.OK);
    }
  }
}
