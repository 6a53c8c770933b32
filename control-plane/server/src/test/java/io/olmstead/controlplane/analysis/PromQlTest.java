package io.olmstead.controlplane.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Variables in analysis queries and the success condition. */
class PromQlTest {
  private static final Map<String, String> VALUES =
      Map.of(
          "cluster", "sim-01", "wave", "canary", "namespace", "etcd", "package", "etcd-operator");

  @Test
  void substitutesTheFourVariables() {
    assertThat(
            PromQl.substitute(
                "sum(rate(errors{cluster=\"$cluster\",namespace=\"$namespace\",package="
                    + "\"$package\",wave=\"$wave\"}[5m]))",
                VALUES))
        .isEqualTo(
            "sum(rate(errors{cluster=\"sim-01\","
                + "namespace=\"etcd\",package=\"etcd-operator\",wave=\"canary\"}[5m]))");
  }

  @Test
  void leavesOtherDollarWordsAlone() {
    assertThat(PromQl.substitute("x{a=\"$clusters\",b=\"$other\"}", VALUES))
        .isEqualTo("x{a=\"$clusters\"," + "b=\"$other\"}");
  }

  @Test
  void aValueCannotEndTheStringLiteral() {
    String hostile = "x\"} or vector(1) or y{a=\"\\";
    String q = PromQl.substitute("errors{cluster=\"$cluster\"}", Map.of("cluster", hostile));
    assertThat(q).isEqualTo("errors{cluster=\"x\\\"} or vector(1) or y{a=\\\"\\\\\"}");
    assertThat(PromQl.escape("it's\n")).isEqualTo("it\\'s\\n");
  }

  @Test
  void successIfIsAComparisonAndANumber() {
    assertThat(SuccessIf.parse("< 0.01").test(0.001)).isTrue();
    assertThat(SuccessIf.parse(">=0.99").test(0.98)).isFalse();
    assertThat(SuccessIf.parse("== 0").test(0)).isTrue();
    assertThat(SuccessIf.parse("!= 0").test(0)).isFalse();
    assertThat(SuccessIf.parse(" > 1e3 ").toString()).isEqualTo("> 1000");
    assertThat(SuccessIf.parse("<= -2.5").toString()).isEqualTo("<= -2.5");
    for (String bad : new String[] {"", "0.01", "< x", "=< 1", "< 1 2", "< NaN", "< Infinity"}) {
      assertThatThrownBy(() -> SuccessIf.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
