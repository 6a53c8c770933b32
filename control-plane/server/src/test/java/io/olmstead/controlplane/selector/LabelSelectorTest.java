package io.olmstead.controlplane.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.selector.LabelSelector.Operator;
import io.olmstead.controlplane.selector.LabelSelector.Requirement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LabelSelectorTest {

  @Test
  void parsesEveryKubernetesOperator() {
    LabelSelector selector =
        LabelSelector.parse(
            "env=prod,region in (eu, us),!canary,tier!=db,gpu,zone notin (a),"
                + "tier==web,size>3,size<10,example.com/team=a");
    assertThat(selector.requirements())
        .containsExactly(
            new Requirement("env", Operator.EQUALS, List.of("prod")),
            new Requirement("region", Operator.IN, List.of("eu", "us")),
            new Requirement("canary", Operator.DOES_NOT_EXIST, List.of()),
            new Requirement("tier", Operator.NOT_EQUALS, List.of("db")),
            new Requirement("gpu", Operator.EXISTS, List.of()),
            new Requirement("zone", Operator.NOT_IN, List.of("a")),
            new Requirement("tier", Operator.EQUALS, List.of("web")),
            new Requirement("size", Operator.GREATER_THAN, List.of("3")),
            new Requirement("size", Operator.LESS_THAN, List.of("10")),
            new Requirement("example.com/team", Operator.EQUALS, List.of("a")));
  }

  @Test
  void toleratesWhitespaceAndAnEmptyValue() {
    assertThat(LabelSelector.parse("  env = prod ,  region   in(eu,us) , note=").requirements())
        .containsExactly(
            new Requirement("env", Operator.EQUALS, List.of("prod")),
            new Requirement("region", Operator.IN, List.of("eu", "us")),
            new Requirement("note", Operator.EQUALS, List.of("")));
  }

  @Test
  void anEmptySelectorMatchesEverything() {
    assertThat(LabelSelector.parse("").matches(Map.of())).isTrue();
    assertThat(LabelSelector.parse("   ").isEmpty()).isTrue();
    assertThat(LabelSelector.parse(null).matches(Map.of("a", "b"))).isTrue();
  }

  @Test
  void matchesLikeKubernetes() {
    Map<String, String> labels = Map.of("env", "prod", "region", "eu", "size", "5");
    assertThat(LabelSelector.parse("env=prod,region in (eu,us),!canary").matches(labels)).isTrue();
    assertThat(LabelSelector.parse("env=prod,canary").matches(labels)).isFalse();
    assertThat(LabelSelector.parse("tier!=db").matches(labels))
        .as("!= matches a missing key")
        .isTrue();
    assertThat(LabelSelector.parse("tier notin (db)").matches(labels))
        .as("notin matches a missing key")
        .isTrue();
    assertThat(LabelSelector.parse("region notin (eu)").matches(labels)).isFalse();
    assertThat(LabelSelector.parse("size>4,size<6").matches(labels)).isTrue();
    assertThat(LabelSelector.parse("env>4").matches(labels))
        .as("non-numeric never compares")
        .isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "env in (prod",
        "env in ()",
        "=prod",
        "-bad=x",
        "env=prod,,tier",
        "env=a b",
        "env=(x)",
        "size>big",
        "env notin prod",
        "a/b/c=x",
        "env=prod,",
        "!",
        "env=-bad-",
        "Bad Key=x",
        "env==(a)",
        "exa_mple.com/team=a"
      })
  void rejectsMalformedSelectorsWithAPosition(String text) {
    assertThatThrownBy(() -> LabelSelector.parse(text))
        .isInstanceOf(LabelSelector.SelectorException.class)
        .hasMessageContaining("position");
  }

  @Test
  void boundsTheNumberOfRequirementsAndValues() {
    assertThatThrownBy(() -> LabelSelector.parse("a,".repeat(64) + "a"))
        .isInstanceOf(LabelSelector.SelectorException.class);
    assertThatThrownBy(() -> LabelSelector.parse("a in (" + "v,".repeat(64) + "v)"))
        .isInstanceOf(LabelSelector.SelectorException.class);
    assertThat(LabelSelector.parse("a,".repeat(63) + "a").requirements()).hasSize(64);
  }

  @Test
  void validatesKeysAndValues() {
    assertThat(LabelSelector.validKey("olmstead.io/team")).isTrue();
    assertThat(LabelSelector.validKey("a".repeat(63))).isTrue();
    assertThat(LabelSelector.validKey("a".repeat(64))).isFalse();
    assertThat(LabelSelector.validKey("/x")).isFalse();
    assertThat(LabelSelector.validValue("")).isTrue();
    assertThat(LabelSelector.validValue("v".repeat(64))).isFalse();
  }
}
