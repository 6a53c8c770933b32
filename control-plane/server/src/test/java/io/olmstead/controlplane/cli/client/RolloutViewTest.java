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
    JsonNode rollout =
        Api.JSON.readTree(
            "{\"id\":\"ro-1\",\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\","
                + "\"state\":\"Progressing\",\"counts\":{\"clusters\":3,\"succeeded\":1,\"failed\":1},\"waves\":["
                + "{\"name\":\"canary\",\"clusters\":1,\"succeeded\":1,\"state\":\"Succeeded\"},"
                + "{\"name\":\"wave-1\",\"clusters\":2,\"succeeded\":0,\"failed\":1,\"state\":\"Open\"}]}");
    assertThat(RolloutView.render(rollout))
        .isEqualTo(
            "Rollout ro-1: etcd -> 0.9.4   Progressing   1/3 succeeded, 1 failed\n"
                + "  canary  [####################]    1/1     Succeeded\n"
                + "  wave-1  [!!!!!!!!!!----------]    0/2     1 failed  Open\n");
  }

  @Test
  void aRolloutOfSeveralTargetsListsThemInTheOrderClustersTakeThem() throws Exception {
    JsonNode rollout =
        Api.JSON.readTree(
            "{\"id\":\"ro-1\",\"subscription\":\"db\",\"targetVersion\":\"1.1.0\","
                + "\"state\":\"Progressing\",\"counts\":{\"clusters\":3,\"succeeded\":2,\"failed\":1},\"waves\":[],"
                + "\"group\":\"ro-1\",\"targets\":[{\"rollout\":\"ro-1\",\"subscription\":\"db\",\"targetVersion\":"
                + "\"1.1.0\",\"state\":\"Progressing\",\"counts\":{\"clusters\":3,\"succeeded\":2,\"failed\":1}},"
                + "{\"rollout\":\"ro-2\",\"subscription\":\"app\",\"targetVersion\":\"0.3.0\",\"state\":\"Progressing\","
                + "\"counts\":{\"clusters\":3,\"succeeded\":1,\"blocked\":1}}]}");
    assertThat(RolloutView.render(rollout))
        .isEqualTo(
            "Rollout ro-1: db -> 1.1.0   Progressing   2/3 succeeded, 1 failed\n"
                + "  targets (in the order each cluster takes them):\n"
                + "    1. db -> 1.1.0   Progressing   2/3 succeeded, 1 failed   (ro-1)\n"
                + "    2. app -> 0.3.0   Progressing   1/3 succeeded, 1 held   (ro-2)\n");
  }

  @Test
  void blockedClustersAreCountedApartFromFailedOnes() throws Exception {
    JsonNode rollout =
        Api.JSON.readTree(
            "{\"id\":\"ro-1\",\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\","
                + "\"state\":\"Progressing\",\"counts\":{\"clusters\":4,\"succeeded\":2,\"failed\":0,\"blocked\":1},"
                + "\"waves\":[{\"name\":\"wave-1\",\"clusters\":4,\"succeeded\":2,\"blocked\":1,\"state\":\"Open\"}]}");
    assertThat(RolloutView.render(rollout))
        .isEqualTo(
            "Rollout ro-1: etcd -> 0.9.4   Progressing   2/4 succeeded, 0 failed, 1 blocked\n"
                + "  wave-1  [##########~~~~~-----]    2/4     1 blocked  Open\n");
  }

  @Test
  void afterARollbackTheOpenedWavesReadRolledBackAsOnTheDashboard() throws Exception {
    JsonNode rollout =
        Api.JSON.readTree(
            "{\"id\":\"ro-1\",\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\","
                + "\"state\":\"RolledBack\",\"counts\":{\"clusters\":2,\"succeeded\":0,\"rolledBack\":1},\"waves\":["
                + "{\"name\":\"canary\",\"clusters\":1,\"rolledBack\":1,\"state\":\"Succeeded\",\"openedAt\":\"2026-11-27T11:00:00Z\"},"
                + "{\"name\":\"batch-1\",\"clusters\":1,\"state\":\"Pending\"}]}");
    String text = RolloutView.render(rollout);
    assertThat(text)
        .contains("  canary   [--------------------]    0/1     1 rolled back  RolledBack\n")
        .contains("  batch-1  [--------------------]    0/1     Pending\n")
        .doesNotContain("Succeeded", "Open");
  }

  @Test
  void statusExitCodesLetCiGateOnTheRollout() throws Exception {
    for (String state :
        new String[] {"Failed", "Aborted", "RolledBack", "SucceededWithExceptions"}) {
      JsonNode rollout = Api.JSON.readTree("{\"state\":\"" + state + "\"}");
      assertThat(RolloutView.exitCode(rollout)).as(state).isEqualTo(ExitCodes.CONFLICT_OR_FAILED);
      assertThat(RolloutView.watchStops(rollout)).as(state).isTrue();
    }
    JsonNode paused = Api.JSON.readTree("{\"state\":\"Paused\"}");
    assertThat(RolloutView.exitCode(paused)).isEqualTo(ExitCodes.PAUSED).isNotZero();
    assertThat(RolloutView.watchStops(paused)).as("--watch does not wait for a person").isTrue();
    JsonNode succeeded = Api.JSON.readTree("{\"state\":\"Succeeded\"}");
    assertThat(RolloutView.exitCode(succeeded)).isZero();
    assertThat(RolloutView.watchStops(succeeded)).isTrue();
    JsonNode progressing = Api.JSON.readTree("{\"state\":\"Progressing\"}");
    assertThat(RolloutView.exitCode(progressing)).isZero();
    assertThat(RolloutView.watchStops(progressing)).isFalse();
  }

  @Test
  void listsTheClustersNotMovingWithTheirReasonAsTheApiGivesIt() throws Exception {
    JsonNode page =
        Api.JSON.readTree(
            "{\"items\":["
                + "{\"name\":\"m-1\",\"wave\":\"canary\",\"state\":\"Progressing\",\"reason\":{\"code\":"
                + "\"WaitingForApproval\",\"message\":\"WaitingForApproval (bundle etcd.v0.9.4, since "
                + "2026-11-27T10:00:00Z)\"}},"
                + "{\"name\":\"eu-0001\",\"wave\":\"wave-1\",\"state\":\"Succeeded\",\"reason\":null},"
                + "{\"name\":\"sim-02\",\"wave\":\"wave-1\",\"state\":\"Blocked\",\"reason\":{\"code\":"
                + "\"PreflightBlocked\",\"message\":\"PreflightBlocked (ExistingResourceInvalid: bad)\"}}]}");
    assertThat(RolloutView.reasons(page, 20))
        .isEqualTo(
            "  CLUSTER  WAVE    STATE        REASON\n"
                + "  m-1      canary  Progressing  WaitingForApproval (bundle etcd.v0.9.4, since 2026-11-27T10:00:00Z)\n"
                + "  sim-02   wave-1  Blocked      PreflightBlocked (ExistingResourceInvalid: bad)\n");
    assertThat(RolloutView.reasons(page, 1))
        .endsWith(
            "  m-1      canary  Progressing  WaitingForApproval (bundle "
                + "etcd.v0.9.4, since 2026-11-27T10:00:00Z)\n  and 1 more\n");
  }

  @Test
  void saysNothingWhenEveryClusterMoves() throws Exception {
    JsonNode page =
        Api.JSON.readTree(
            "{\"items\":[{\"name\":\"a\",\"wave\":\"w\",\"state\":\"Succeeded\","
                + "\"reason\":null}],\"nextCursor\":\"x\"}");
    assertThat(RolloutView.reasons(page, 20)).isEmpty();
  }
}
