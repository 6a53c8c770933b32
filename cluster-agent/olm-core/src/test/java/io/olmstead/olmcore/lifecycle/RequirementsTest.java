package io.olmstead.olmcore.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.fbc.Gvk;
import io.olmstead.olmcore.lifecycle.Requirements.CrdState;
import io.olmstead.olmcore.lifecycle.Requirements.Facts;
import io.olmstead.olmcore.lifecycle.Requirements.RequirementStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequirementsTest {
  private static final Gvk POD = new Gvk("", "v1", "Pod");
  private static final Gvk SERVICE_MONITOR =
      new Gvk("monitoring.coreos.com", "v1", "ServiceMonitor");
  private static final JsonNode CSV =
      Json.of(
          "{'metadata':{'name':'topology.v1.19.3'},'spec':{"
              + "'minKubeVersion':'1.25.0',"
              + "'nativeAPIs':[{'group':'','version':'v1','kind':'Pod'}],"
              + "'apiservicedefinitions':{'required':[{'group':'monitoring.coreos.com','version':'v1',"
              + "'kind':'ServiceMonitor'}]},"
              + "'customresourcedefinitions':{'required':[{'name':'rabbitmqclusters.rabbitmq.com','version':'v1',"
              + "'kind':'RabbitmqCluster'}]}}}");

  @ParameterizedTest(name = "minKubeVersion {0} on {1}: met = {2}")
  @CsvSource({
    "1.25.0, v1.24.9, false",
    "1.25.0, v1.25.0, true",
    "1.25.0, v1.31.0-simulated, true",
    "v1.28.0, 1.27.3+k3s1, false",
    "1.25.3, v1.25.0, false",
    "1.19.0-0, v1.31.0, true",
    "1.24, v1.24.0, true"
  })
  void minKubeVersionIsComparedAsSemverAsOlmDoes(String min, String server, boolean met) {
    assertThat(Requirements.minKubeVersion("csv", min, server).met())
        .as(min + " on " + server)
        .isEqualTo(met);
  }

  @Test
  void anUnmetMinKubeVersionSaysBothVersionsInOlmsWords() {
    RequirementStatus status =
        Requirements.minKubeVersion("etcdoperator.v0.9.4", "1.33.0", "v1.31.0-simulated");
    assertThat(status)
        .isEqualTo(
            new RequirementStatus(
                "operators.coreos.com",
                "v1alpha1",
                "ClusterServiceVersion",
                "etcdoperator.v0.9.4",
                "PresentNotSatisfied",
                "CSV version requirement not met: minKubeVersion (1.33.0) > server version (1.31.0)"));
  }

  @Test
  void anUnreadableServerVersionOrAnUnparseableMinimumIsUnmet() {
    assertThat(Requirements.minKubeVersion("csv", "1.25.0", null).message())
        .isEqualTo("Server version discovery error");
    assertThat(Requirements.minKubeVersion("csv", "next", "v1.31.0").message())
        .isEqualTo("CSV version parsing error");
  }

  @Test
  void theNeedsAreWhatTheCsvRequires() {
    Requirements.Needs needs = Requirements.needs(CSV);
    assertThat(needs.serverVersion()).isTrue();
    assertThat(needs.apis()).containsExactly(POD, SERVICE_MONITOR);
    assertThat(needs.crds()).containsExactly("rabbitmqclusters.rabbitmq.com");
  }

  @Test
  void everyRequirementIsListedWithItsStatusAndTheUnmetOnesSayWhy() {
    List<RequirementStatus> statuses =
        Requirements.evaluate(CSV, new Facts("v1.24.0", Set.of(), Map.of()));
    assertThat(statuses)
        .extracting(RequirementStatus::kind, RequirementStatus::status)
        .containsExactly(
            tuple("ClusterServiceVersion", "PresentNotSatisfied"),
            tuple("CustomResourceDefinition", "NotPresent"),
            tuple("APIService", "NotPresent"),
            tuple("Pod", "NotPresent"));
    assertThat(Requirements.unmet(statuses).orElseThrow())
        .contains(
            "CustomResourceDefinition rabbitmqclusters.rabbitmq.com: NotPresent (CRD is not present)")
        .contains("Pod v1.: NotPresent (Native API does not exist)")
        .contains("APIService v1.monitoring.coreos.com: NotPresent");
  }

  @Test
  void aRequiredCrdMustServeTheVersionAndBeEstablished() {
    Facts notServed =
        new Facts(
            "v1.31.0",
            Set.of(POD, SERVICE_MONITOR),
            Map.of("rabbitmqclusters.rabbitmq.com", new CrdState(Set.of("v1beta1"), true)));
    Facts notEstablished =
        new Facts(
            "v1.31.0",
            Set.of(POD, SERVICE_MONITOR),
            Map.of("rabbitmqclusters.rabbitmq.com", new CrdState(Set.of("v1"), false)));
    assertThat(Requirements.unmet(Requirements.evaluate(CSV, notServed)).orElseThrow())
        .isEqualTo(
            "CustomResourceDefinition rabbitmqclusters.rabbitmq.com: NotPresent (CRD version not served)");
    assertThat(Requirements.unmet(Requirements.evaluate(CSV, notEstablished)).orElseThrow())
        .isEqualTo(
            "CustomResourceDefinition rabbitmqclusters.rabbitmq.com: NotAvailable (CRD is present but the "
                + "Established condition is False (not available))");
  }

  @Test
  void allMetLeavesNothingUnmet() {
    Facts all =
        new Facts(
            "v1.31.0",
            Set.of(POD, SERVICE_MONITOR),
            Map.of("rabbitmqclusters.rabbitmq.com", new CrdState(Set.of("v1"), true)));
    List<RequirementStatus> statuses = Requirements.evaluate(CSV, all);
    assertThat(statuses).allMatch(RequirementStatus::met).hasSize(4);
    assertThat(Requirements.unmet(statuses)).isEmpty();
  }

  @Test
  void aCsvWithoutRequirementsHasNone() {
    assertThat(Requirements.evaluate(Json.of("{'spec':{}}"), new Facts(null, Set.of(), Map.of())))
        .isEmpty();
  }
}
