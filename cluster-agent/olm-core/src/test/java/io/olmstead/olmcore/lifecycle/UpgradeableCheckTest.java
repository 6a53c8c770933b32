package io.olmstead.olmcore.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class UpgradeableCheckTest {

  private static String oc(int generation, String overrides, String conditions) {
    return "{'apiVersion':'operators.coreos.com/v2','kind':'OperatorCondition',"
        + "'metadata':{'name':'etcd.v0.9.2','generation':"
        + generation
        + "},"
        + "'spec':{'overrides':["
        + overrides
        + "]},'status':{'conditions':["
        + conditions
        + "]}}";
  }

  private static String cond(String type, String status, int observed, String message) {
    return "{'type':'"
        + type
        + "','status':'"
        + status
        + "','observedGeneration':"
        + observed
        + ",'reason':'r','message':'"
        + message
        + "'}";
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no OperatorCondition", null, true, null),
        Arguments.of("no conditions", oc(1, "", ""), true, null),
        Arguments.of(
            "Upgradeable=True observed",
            oc(2, "", cond("Upgradeable", "True", 2, "ok")),
            true,
            null),
        Arguments.of(
            "Upgradeable=False blocks",
            oc(2, "", cond("Upgradeable", "False", 2, "migrating data")),
            false,
            "operator is not upgradeable: migrating data"),
        Arguments.of(
            "other condition types are ignored",
            oc(1, "", cond("Ready", "False", 1, "x")),
            true,
            null),
        Arguments.of(
            "stale True counts as not upgradeable",
            oc(3, "", cond("Upgradeable", "True", 2, "ok")),
            false,
            "operator is not upgradeable: the operatorcondition status \"Upgradeable\"=\"True\" is outdated"),
        Arguments.of(
            "missing observedGeneration is stale",
            oc(1, "", "{'type':'Upgradeable','status':'True','message':'ok'}"),
            false,
            "operator is not upgradeable: the operatorcondition status \"Upgradeable\"=\"True\" is outdated"),
        Arguments.of(
            "override True wins over False condition",
            oc(2, cond("Upgradeable", "True", 0, "forced"), cond("Upgradeable", "False", 2, "no")),
            true,
            null),
        Arguments.of(
            "override True wins over stale condition",
            oc(5, cond("Upgradeable", "True", 0, "forced"), cond("Upgradeable", "False", 1, "no")),
            true,
            null),
        Arguments.of(
            "override False wins over True condition",
            oc(
                2,
                cond("Upgradeable", "False", 0, "admin hold"),
                cond("Upgradeable", "True", 2, "ok")),
            false,
            "operator is not upgradeable: admin hold"),
        Arguments.of(
            "override of another type is ignored",
            oc(2, cond("Ready", "True", 0, "x"), cond("Upgradeable", "False", 2, "no")),
            false,
            "operator is not upgradeable: no"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decidesLikeOlm(String name, String operatorCondition, boolean allowed, String message) {
    UpgradeDecision d =
        UpgradeableCheck.evaluate(operatorCondition == null ? null : Json.of(operatorCondition));
    assertThat(d.allowed()).isEqualTo(allowed);
    assertThat(d.message()).isEqualTo(message);
    assertThat(d.reason()).isEqualTo(allowed ? null : "OperatorConditionNotUpgradeable");
  }
}
