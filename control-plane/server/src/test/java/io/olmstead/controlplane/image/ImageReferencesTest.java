package io.olmstead.controlplane.image;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ImageReferencesTest {
  static final String HEX = "a".repeat(64);

  @Test
  void acceptsUsualReferences() {
    assertThat(ImageReferences.problem("quay.io/operatorhubio/catalog:latest")).isEmpty();
    assertThat(ImageReferences.problem("registry.example:5000/org/etcd@sha256:" + HEX)).isEmpty();
    assertThat(ImageReferences.problem("registry.example:65535/org/etcd:v1.2_3-rc.1@sha256:" + HEX))
        .isEmpty();
    assertThat(ImageReferences.problem("busybox")).isEmpty();
    assertThat(ImageReferences.problem("localhost/x:" + "t".repeat(128))).isEmpty();
  }

  @Test
  void refusesPortsOutsideOneTo65535() {
    assertThat(ImageReferences.problem("registry.example:0/org/etcd:v1"))
        .hasValueSatisfying(m -> assertThat(m).contains("port 0 is not in 1..65535"));
    assertThat(ImageReferences.problem("registry.example:65536/org/etcd:v1"))
        .hasValueSatisfying(m -> assertThat(m).contains("port 65536"));
    assertThat(ImageReferences.problem("registry.example:99999999999/org/etcd")).isPresent();
  }

  @Test
  void refusesLongOrMalformedTags() {
    assertThat(ImageReferences.problem("quay.io/org/etcd:" + "t".repeat(129)))
        .hasValueSatisfying(m -> assertThat(m).contains("tag").contains("128"));
    assertThat(ImageReferences.problem("quay.io/org/etcd:bad!tag"))
        .hasValueSatisfying(m -> assertThat(m).contains("tag 'bad!tag'"));
    assertThat(ImageReferences.problem("quay.io/org/etcd:-v1")).isPresent();
    assertThat(ImageReferences.problem("quay.io/org/etcd:")).isPresent();
  }

  @Test
  void refusesMalformedDigests() {
    assertThat(ImageReferences.problem("quay.io/org/etcd@sha256:abc"))
        .hasValueSatisfying(m -> assertThat(m).contains("digest 'sha256:abc'"));
    assertThat(ImageReferences.problem("quay.io/org/etcd@sha256:" + "A".repeat(64))).isPresent();
    assertThat(ImageReferences.problem("quay.io/org/etcd@sha256:" + HEX + "0")).isPresent();
    assertThat(ImageReferences.problem("quay.io/org/etcd@md5:" + HEX)).isPresent();
    assertThat(ImageReferences.problem("quay.io/org/etcd@")).isPresent();
  }

  @Test
  void refusesWhatIsNoReferenceAtAll() {
    assertThat(ImageReferences.problem("")).isPresent();
    assertThat(ImageReferences.problem("https://quay.io/org/etcd")).isPresent();
    assertThat(ImageReferences.problem("quay.io/Org With Spaces/etcd")).isPresent();
  }
}
