package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DescribeFailedLinesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<JsonNode> members(int n) {
    List<JsonNode> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      members.add(
          JSON.createObjectNode()
              .put("name", "c-" + i)
              .put("wave", "0")
              .put("state", "Failed")
              .put("message", "InstallCheckFailed:\nImagePullBackOff"));
    }
    return members;
  }

  private static JsonNode rollout(int failed, int blocked) {
    ObjectNode r = JSON.createObjectNode();
    r.putObject("counts").put("failed", failed).put("blocked", blocked);
    return r;
  }

  @Test
  void aRolloutWithMoreFailuresThanShownSaysHowManyMoreAndWhereToReadThem() {
    List<String> lines = DescribeCommand.failedLines(rollout(70, 5), members(60), "/rollouts/r1");
    assertThat(lines).hasSize(1 + DescribeCommand.EVENTS + 1);
    assertThat(lines.get(1))
        .isEqualTo("  c-0 (wave 0, Failed): InstallCheckFailed: ImagePullBackOff");
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo(
            "  ... and 65 more (GET /rollouts/r1/clusters?state=Failed, " + "?state=Blocked)");
  }

  @Test
  void everyFailureShownNeedsNoMoreLine() {
    assertThat(DescribeCommand.failedLines(rollout(2, 1), members(3), "/rollouts/r1"))
        .hasSize(4)
        .noneMatch(l -> l.contains("more"));
    assertThat(DescribeCommand.failedLines(rollout(0, 0), List.of(), "/rollouts/r1"))
        .containsExactly("Failed or blocked clusters:", "  <none>");
  }
}
