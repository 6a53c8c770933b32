package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.dev.SimulatedHostedStatus.Step;
import io.olmstead.controlplane.hypershift.HostedCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulated HyperShift operator's steps, from a HostedCluster created without status to its
 * deletion.
 */
class SimulatedHostedStatusTest {
  private static final Instant T0 = Instant.parse("2026-11-23T06:00:00Z");
  private static final Duration DELAY = Duration.ofSeconds(3);
  private static final String IMAGE = "quay.io/openshift-release-dev/ocp-release:4.19.7-multi";

  @SuppressWarnings("unchecked")
  private static Map<String, Object> created(String clusterId, String image) {
    return new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
        .convertValue(
            SimulatedManagementCluster.hostedCluster(
                "hc-01", Map.of("env", "dev"), clusterId, image),
            Map.class);
  }

  @Test
  void aHostedClusterCreatedWithoutStatusIsAdoptedProvisionedStartedAndAvailableAfterTheDelay() {
    Map<String, Object> hc = created(null, IMAGE);
    assertThat(SimulatedHostedStatus.next(hc, false, T0, DELAY)).isEqualTo(Step.ADOPT);
    hc = SimulatedHostedStatus.adopted(hc, () -> "11111111-2222-3333-4444-555555555555");
    assertThat(HostedCluster.of(hc).clusterId()).isEqualTo("11111111-2222-3333-4444-555555555555");
    assertThat(finalizers(hc)).containsExactly(SimulatedHostedStatus.FINALIZER);
    assertThat(SimulatedHostedStatus.next(hc, false, T0, DELAY)).isEqualTo(Step.PROVISION);
    assertThat(SimulatedHostedStatus.next(hc, true, T0, DELAY)).isEqualTo(Step.START_VERSION);

    hc = SimulatedHostedStatus.started(hc, "127.0.0.1", 40000, T0);
    HostedCluster view = HostedCluster.of(hc);
    assertThat(view.condition("Available")).isFalse();
    assertThat(view.condition("Progressing")).isTrue();
    assertThat(view.completedVersion()).isNull();
    assertThat(view.desiredVersion()).isEqualTo("4.19.7");
    assertThat(view.kubeconfigSecret()).isEqualTo("hc-01-admin-kubeconfig");
    assertThat(SimulatedHostedStatus.next(hc, true, T0.plus(DELAY).minusMillis(1), DELAY))
        .isEqualTo(Step.NONE);
    assertThat(SimulatedHostedStatus.next(hc, true, T0.plus(DELAY), DELAY))
        .isEqualTo(Step.COMPLETE_VERSION);

    hc = SimulatedHostedStatus.completed(hc, T0.plus(DELAY));
    view = HostedCluster.of(hc);
    assertThat(view.condition("Available")).isTrue();
    assertThat(view.condition("Progressing")).isFalse();
    assertThat(view.completedVersion()).isEqualTo("4.19.7");
    assertThat(reason(hc, "Available")).isEqualTo("AsExpected");
    assertThat(SimulatedHostedStatus.next(hc, true, T0.plusSeconds(60), DELAY))
        .isEqualTo(Step.NONE);
  }

  @Test
  void aChangedReleaseImageGoesProgressingThenCompletedAtTheNewVersionStayingAvailable() {
    Map<String, Object> hc = available();
    setImage(hc, "quay.io/openshift-release-dev/ocp-release:4.19.9-multi");
    assertThat(SimulatedHostedStatus.next(hc, true, T0, DELAY)).isEqualTo(Step.START_VERSION);
    hc = SimulatedHostedStatus.started(hc, "127.0.0.1", 40000, T0.plusSeconds(10));
    HostedCluster view = HostedCluster.of(hc);
    assertThat(view.condition("Progressing")).isTrue();
    assertThat(view.condition("Available")).isTrue();
    assertThat(view.desiredVersion()).isEqualTo("4.19.9");
    assertThat(view.completedVersion()).isEqualTo("4.19.7");
    assertThat(SimulatedHostedStatus.next(hc, true, T0.plusSeconds(13), DELAY))
        .isEqualTo(Step.COMPLETE_VERSION);
    hc = SimulatedHostedStatus.completed(hc, T0.plusSeconds(13));
    view = HostedCluster.of(hc);
    assertThat(view.completedVersion()).isEqualTo("4.19.9");
    assertThat(view.condition("Progressing")).isFalse();
  }

  @Test
  void aReleaseImageWithoutAVersionTagIsReportedOnceAndNotProvisionedFurther() {
    Map<String, Object> hc = available();
    setImage(hc, "quay.io/openshift-release-dev/ocp-release@sha256:0123abcd");
    assertThat(SimulatedHostedStatus.next(hc, true, T0, DELAY)).isEqualTo(Step.INVALID_IMAGE);
    hc = SimulatedHostedStatus.invalidImage(hc, T0);
    assertThat(reason(hc, "ValidReleaseImage")).isEqualTo("InvalidImage");
    assertThat(SimulatedHostedStatus.next(hc, true, T0.plusSeconds(30), DELAY))
        .isEqualTo(Step.NONE);
    assertThat(HostedCluster.of(hc).completedVersion()).isEqualTo("4.19.7");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aDeletedHostedClusterIsTornDownThenLetGo() {
    Map<String, Object> hc = available();
    ((Map<String, Object>) hc.get("metadata")).put("deletionTimestamp", T0.toString());
    assertThat(SimulatedHostedStatus.next(hc, true, T0, DELAY)).isEqualTo(Step.TEAR_DOWN);
    hc = SimulatedHostedStatus.released(hc);
    assertThat(finalizers(hc)).isEmpty();
    assertThat(SimulatedHostedStatus.next(hc, false, T0, DELAY)).isEqualTo(Step.NONE);
  }

  private static Map<String, Object> available() {
    Map<String, Object> hc = SimulatedHostedStatus.adopted(created("id-1", IMAGE), () -> "unused");
    return SimulatedHostedStatus.completed(
        SimulatedHostedStatus.started(hc, "127.0.0.1", 40000, T0.minusSeconds(60)),
        T0.minusSeconds(50));
  }

  @SuppressWarnings("unchecked")
  private static List<Object> finalizers(Map<String, Object> hc) {
    return (List<Object>) ((Map<String, Object>) hc.get("metadata")).get("finalizers");
  }

  @SuppressWarnings("unchecked")
  private static void setImage(Map<String, Object> hc, String image) {
    ((Map<String, Object>) hc.get("spec")).put("release", Map.of("image", image));
  }

  @SuppressWarnings("unchecked")
  private static String reason(Map<String, Object> hc, String type) {
    for (Object c : (List<Object>) ((Map<String, Object>) hc.get("status")).get("conditions")) {
      Map<String, Object> condition = (Map<String, Object>) c;
      if (type.equals(condition.get("type"))) {
        return (String) condition.get("reason");
      }
    }
    return null;
  }
}
