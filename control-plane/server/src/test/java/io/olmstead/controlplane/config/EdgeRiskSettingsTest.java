package io.olmstead.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EdgeRiskSettingsTest {
  @Test
  void defaultsAndNamedLabelsAreRead() {
    assertThat(ControlPlaneConfig.fromEnvironment(Map.of(), "127.0.0.1").edgeRisk())
        .isEqualTo(EdgeRiskSettings.DEFAULT);
    EdgeRiskSettings s =
        ControlPlaneConfig.fromEnvironment(
                Map.of(
                    EdgeRiskSettings.LABELS,
                    " fips, topology.kubernetes.io/region ,fips,",
                    EdgeRiskSettings.MAX_PER_EDGE,
                    "20",
                    EdgeRiskSettings.HALF_LIFE,
                    "7"),
                "127.0.0.1")
            .edgeRisk();
    assertThat(s)
        .isEqualTo(
            new EdgeRiskSettings(
                List.of("fips", "topology.kubernetes.io/region"), 20, 5000, 7, 10));
    assertThat(ControlPlaneConfig.ENVIRONMENT).containsAll(EdgeRiskSettings.ENVIRONMENT);
  }

  @Test
  void badValuesAreRefusedAtStartNamingTheSetting() {
    Map<String, String> bad =
        Map.of(
            EdgeRiskSettings.LABELS,
            "fips,not a key",
            EdgeRiskSettings.MAX_PER_TEAM,
            "0",
            EdgeRiskSettings.SUCCESSES_PER_FAILURE,
            "-1");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      assertThatThrownBy(() -> EdgeRiskSettings.fromEnvironment(Map.of(e.getKey(), e.getValue())))
          .as(e.getKey())
          .isInstanceOf(ConfigException.class)
          .satisfies(x -> assertThat(((ConfigException) x).setting()).isEqualTo(e.getKey()));
    }
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 17; i++) {
      many.append("l").append(i).append(',');
    }
    assertThatThrownBy(
            () ->
                EdgeRiskSettings.fromEnvironment(Map.of(EdgeRiskSettings.LABELS, many.toString())))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("at most 16");
  }
}
