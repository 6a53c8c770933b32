package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class ImpactViewTest {
  private static ObjectNode preview(ArrayNode excluded) {
    ObjectNode preview =
        Api.JSON
            .createObjectNode()
            .put("subscription", "etcd")
            .put("targetVersion", "0.9.2")
            .put("alreadyAtTarget", false);
    preview.set("waves", Api.JSON.createArrayNode());
    preview.set("excluded", excluded);
    preview.putObject("impact").putObject("totals").put("clusters", 0).put("maxHops", 0);
    return preview;
  }

  private static ArrayNode excluded(int n, String reason) {
    ArrayNode out = Api.JSON.createArrayNode();
    for (int i = 1; i <= n; i++) {
      out.addObject().put("name", String.format("eu-%04d", i)).put("reason", reason);
    }
    return out;
  }

  @Test
  void aPreviewThatLeavesEveryClusterOutNamesEachWithItsReason() {
    String out = ImpactView.render(preview(excluded(2, "no upgrade path from 0.9.4 to 0.9.2")));
    assertThat(out)
        .startsWith(
            "Preview: etcd -> 0.9.2   0 clusters in 0 waves, at most 0 hops\n"
                + "Excluded: 2 placed clusters take no part:\n"
                + "  CLUSTER   REASON\n"
                + "  eu-0001   no upgrade path from 0.9.4 to 0.9.2\n"
                + "  eu-0002   no upgrade path from 0.9.4 to 0.9.2\n")
        .doesNotContain("CLUSTER   WAVE");
  }

  @Test
  void manyExcludedClustersAreCountedPerReasonMostFirst() {
    ArrayNode excluded = excluded(3, "blocked: last reported Upgradeable=False");
    excluded.addAll(excluded(9, "no upgrade path from 0.9.4 to 0.9.2"));
    JsonNode preview = preview(excluded);
    assertThat(ImpactView.render(preview))
        .contains(
            "Excluded: 12 placed clusters take no part (-o json names each):\n"
                + "  CLUSTERS   REASON\n"
                + "  9          no upgrade path from 0.9.4 to 0.9.2\n"
                + "  3          blocked: last reported Upgradeable=False\n")
        .doesNotContain("eu-0001");
  }

  @Test
  void nothingIsSaidOfExclusionsWhenEveryPlacedClusterTakesPart() {
    assertThat(ImpactView.render(preview(Api.JSON.createArrayNode()))).doesNotContain("Excluded");
  }
}
