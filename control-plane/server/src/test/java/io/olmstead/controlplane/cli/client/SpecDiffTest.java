package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class SpecDiffTest {
  private static JsonNode json(String text) throws Exception {
    return Api.JSON.readTree(text);
  }

  @Test
  void fieldsTheServerAddsDoNotCountButEveryGivenFieldDoes() throws Exception {
    JsonNode current =
        json(
            "{\"name\":\"etcd\",\"catalog\":\"demo\",\"package\":\"etcd\",\"channel\":\"alpha\","
                + "\"placement\":{\"selector\":\"env=prod\",\"clusters\":[]},\"version\":{\"pin\":\"0.9.2\"},"
                + "\"approval\":\"Automatic\",\"config\":{},\"resourceVersion\":3,\"generation\":2}");
    assertThat(
            SpecDiff.changedFields(
                json(
                    "{\"catalog\":\"demo\",\"placement\":{\"selector\":\"env=prod\"},"
                        + "\"version\":{\"pin\":\"0.9.2\"}}"),
                current))
        .isEmpty();
    JsonNode spec =
        json("{\"catalog\":\"demo\",\"version\":{\"pin\":\"0.9.4\"},\"approval\":\"Manual\"}");
    assertThat(SpecDiff.changedFields(spec, current)).containsExactly("version", "approval");
    assertThat(SpecDiff.describe(SpecDiff.changedFields(spec, current), spec, current))
        .containsExactly(
            "version: {\"pin\":\"0.9.2\"} -> {\"pin\":\"0.9.4\"}",
            "approval: \"Automatic\" -> \"Manual\"");
  }

  @Test
  void switchingThePolicyKindIsAChangeAndListsCompareExactly() throws Exception {
    assertThat(SpecDiff.covers(json("{\"follow\":\"channel\"}"), json("{\"pin\":\"0.9.2\"}")))
        .isFalse();
    assertThat(SpecDiff.covers(json("[\"a\"]"), json("[\"a\",\"b\"]"))).isFalse();
    assertThat(SpecDiff.covers(json("10"), json("10.0"))).isTrue();
    assertThat(SpecDiff.covers(json("{}"), Api.JSON.missingNode())).isTrue();
    assertThat(SpecDiff.covers(json("null"), json("null"))).isTrue();
  }
}
