package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReleaseVersionTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      nullValues = "none",
      value = {
        "quay.io/openshift-release-dev/ocp-release:4.19.7-multi, 4.19.7",
        "quay.io/openshift-release-dev/ocp-release:4.18.3-x86_64, 4.18.3",
        "quay.io/openshift-release-dev/ocp-release:4.20.0-rc.1-aarch64, 4.20.0-rc.1",
        "registry.local:5000/ocp-release:4.17.12, 4.17.12",
        "registry.local:5000/ocp-release, none",
        "quay.io/openshift-release-dev/ocp-release@sha256:0123abcd, none",
        "quay.io/openshift-release-dev/ocp-release:latest, none",
        "quay.io/openshift-release-dev/ocp-release:4.19, none",
        "none, none"
      })
  void readsTheVersionFromTheReleaseImageTag(String image, String version) {
    assertThat(ReleaseVersion.of(image).orElse(null)).isEqualTo(version);
  }
}
