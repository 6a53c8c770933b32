package io.olmstead.controlplane.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class AnalysisCheckTest {
  private static final AnalysisCheck TEMPLATE =
      AnalysisCheck.fromJson(
          new JsonObject()
              .put("query", "up")
              .put("successIf", "< 0.01")
              .put("intervalSeconds", 30)
              .put("count", 4)
              .put("failureLimit", 2)
              .put("inconclusiveLimit", 1),
          true);

  @Test
  void aReferenceTakesTheTemplatesQueryAndKeepsItsOwnConditionTimingAndLimits() {
    AnalysisCheck ref =
        AnalysisCheck.fromJson(
            new JsonObject()
                .put("name", "e")
                .put("templateName", "t")
                .put("successIf", ">= 0.99")
                .put("failureLimit", 0),
            false);
    assertThat(ref.resolved()).isFalse();
    AnalysisCheck resolved = ref.withTemplate(TEMPLATE);
    assertThat(resolved.resolved()).isTrue();
    assertThat(resolved.query()).isEqualTo("up");
    assertThat(resolved.successIf().toString()).isEqualTo(">= 0.99");
    assertThat(resolved.failureLimit()).as("an override of 0 is an override").isZero();
    assertThat(resolved.intervalSeconds()).isEqualTo(30);
    assertThat(resolved.count()).isEqualTo(4);
    assertThat(resolved.inconclusiveLimit()).isEqualTo(1);
    assertThat(resolved.templateName()).isEqualTo("t");
  }

  @Test
  void aResolvedCheckReadsBackFromItsStoredFormAsItWas() {
    AnalysisCheck resolved =
        AnalysisCheck.fromJson(
                new JsonObject().put("name", "e").put("templateName", "t").put("count", 9), false)
            .withTemplate(TEMPLATE);
    assertThat(AnalysisCheck.fromJson(resolved.toJson(), false)).isEqualTo(resolved);
    AnalysisCheck ref =
        AnalysisCheck.fromJson(
            new JsonObject().put("name", "e").put("templateName", "t").put("count", 9), false);
    assertThat(ref.toJson().getInteger("count")).isEqualTo(9);
    assertThat(ref.toJson().containsKey("intervalSeconds")).isFalse();
  }

  @Test
  void aRequestsQueryIsAtMost4096CharactersAndNeverBesideATemplateName() {
    AnalysisCheck.checkRequest(new JsonObject().put("query", "x".repeat(4096)));
    assertThatThrownBy(
            () -> AnalysisCheck.checkRequest(new JsonObject().put("query", "x".repeat(4097))))
        .isInstanceOfSatisfying(
            AnalysisCheck.CheckException.class, e -> assertThat(e.field()).isEqualTo("query"))
        .hasMessageContaining("4097 characters long");
    assertThatThrownBy(
            () ->
                AnalysisCheck.checkRequest(
                    new JsonObject().put("templateName", "t").put("query", "up")))
        .isInstanceOfSatisfying(
            AnalysisCheck.CheckException.class, e -> assertThat(e.field()).isEqualTo("query"));
    // what was stored under an older limit still reads back
    assertThat(
            AnalysisCheck.fromJson(
                    new JsonObject().put("query", "x".repeat(9000)).put("successIf", "< 1"), true)
                .query())
        .hasSize(9000);
  }

  @Test
  void aTemplateCannotNameAnotherTemplate() {
    assertThatThrownBy(
            () -> AnalysisCheck.fromJson(new JsonObject().put("templateName", "other"), true))
        .isInstanceOfSatisfying(
            AnalysisCheck.CheckException.class,
            e -> assertThat(e.field()).isEqualTo("templateName"));
  }
}
