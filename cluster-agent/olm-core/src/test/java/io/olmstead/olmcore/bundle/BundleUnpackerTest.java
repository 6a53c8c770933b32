package io.olmstead.olmcore.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.ParseLimits;
import io.olmstead.olmcore.tar.TarLimits;
import java.io.InputStream;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;

class BundleUnpackerTest {

  static final String CSV =
      "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\n"
          + "metadata:\n  name: etcd.v0.9.4\nspec:\n  version: 0.9.4\n";
  static final String CRD =
      "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
          + "\"metadata\":{\"name\":\"etcdclusters.etcd.database.coreos.com\"}}";
  static final String ANNOTATIONS =
      "annotations:\n  operators.operatorframework.io.bundle.package.v1: etcd\n"
          + "  operators.operatorframework.io.bundle.channels.v1: alpha\n";

  final BundleUnpacker unpacker = new BundleUnpacker(BundleLimits.defaults());

  UnpackedBundle unpack(InputStream... layers) throws BundleUnpackException {
    return unpacker.unpack("etcd.v0.9.4", List.of(layers));
  }

  static List<String> kinds(UnpackedBundle b) {
    return b.objects().stream().map(BundleObject::kind).toList();
  }

  @Test
  void readsManifestsAsBundleObjectsAndTheAnnotations() throws Exception {
    UnpackedBundle b =
        unpack(
            new Layer()
                .dir("manifests")
                .file("manifests/etcd.clusterserviceversion.yaml", CSV)
                .file("./manifests/etcdclusters.crd.json", CRD)
                .file("metadata/annotations.yaml", ANNOTATIONS)
                .file("root/other", "ignored")
                .gzip());
    assertThat(kinds(b)).containsExactly("ClusterServiceVersion", "CustomResourceDefinition");
    assertThat(b.objects().get(0).name()).isEqualTo("etcd.v0.9.4");
    // kept as opm does: base64 of the manifest as JSON, decodable like a catalog's
    // olm.bundle.object
    assertThat(
            new BundleObject("x", b.objects().get(0).data())
                .manifest()
                .path("spec")
                .path("version")
                .asText())
        .isEqualTo("0.9.4");
    assertThat(b.annotations())
        .containsEntry("operators.operatorframework.io.bundle.package.v1", "etcd");
  }

  @Test
  void laterLayersOverwriteAndWhiteoutsDelete() throws Exception {
    UnpackedBundle b =
        unpack(
            new Layer()
                .file("manifests/a.yaml", "kind: A\n")
                .file("manifests/b.yaml", "kind: B\n")
                .gzip(),
            new Layer()
                .file("manifests/a.yaml", "kind: A2\n")
                .file("manifests/.wh.b.yaml", "")
                .plain());
    assertThat(kinds(b)).containsExactly("A2");
  }

  @Test
  void anOpaqueWhiteoutEmptiesItsDirectory() throws Exception {
    UnpackedBundle b =
        unpack(
            new Layer()
                .file("manifests/a.yaml", "kind: A\n")
                .file("manifests/b.yaml", "kind: B\n")
                .gzip(),
            new Layer()
                .file("manifests/.wh..wh..opq", "")
                .file("manifests/c.yaml", "kind: C\n")
                .gzip());
    assertThat(kinds(b)).containsExactly("C");
  }

  @Test
  void aLinkInsideTheImageIsFollowed() throws Exception {
    UnpackedBundle b =
        unpack(
            new Layer()
                .file("manifests/a.yaml", "kind: A\n")
                .symlink("manifests/b.yaml", "a.yaml")
                .gzip());
    assertThat(kinds(b)).containsExactly("A", "A");
  }

  @Test
  void anImageWithoutManifestsIsNotABundle() {
    assertThatThrownBy(() -> unpack(new Layer().file("configs/etcd/catalog.json", "{}").gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("not a bundle image");
  }

  @Test
  void refusesPathsEscapingTheRoot() {
    assertThatThrownBy(() -> unpack(new Layer().file("manifests/../../etc/passwd", "x").gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("escapes");
    assertThatThrownBy(() -> unpack(new Layer().file("/manifests/a.yaml", "kind: A\n").plain()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("absolute");
  }

  @Test
  void refusesLinksPointingOutside() {
    assertThatThrownBy(() -> unpack(new Layer().symlink("manifests/a.yaml", "/etc/shadow").gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("links outside");
    assertThatThrownBy(() -> unpack(new Layer().symlink("manifests/a.yaml", "../../x").gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("links outside");
    assertThatThrownBy(() -> unpack(new Layer().hardlink("manifests/a.yaml", "../x").gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("links outside");
  }

  @Test
  void refusesDeviceFiles() {
    assertThatThrownBy(
            () -> unpack(new Layer().special("manifests/dev", TarConstants.LF_CHR).gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("device file");
    assertThatThrownBy(() -> unpack(new Layer().special("dev/sda", TarConstants.LF_BLK).gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("device file");
  }

  @Test
  void entryCountFileSizeAndTotalSizeAreLimited() {
    BundleLimits small =
        new BundleLimits(new TarLimits(3, 0, 100, 1000, 20_000, 1024), ParseLimits.defaults());
    BundleUnpacker u = new BundleUnpacker(small);
    Layer many = new Layer();
    for (int i = 0; i < 4; i++) {
      many.file("manifests/" + i + ".yaml", "kind: A\n");
    }
    assertThatThrownBy(() -> u.unpack("b", List.of(many.gzip())))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("entry limit of 3");
    assertThatThrownBy(
            () ->
                u.unpack(
                    "b",
                    List.of(
                        new Layer()
                            .file("manifests/a.yaml", "kind: A\n#" + "x".repeat(200))
                            .gzip())))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("file size limit of 100");
    // bytes outside manifests/ count too, so a layer cannot make the control plane inflate without
    // end
    assertThatThrownBy(
            () -> u.unpack("b", List.of(new Layer().file("big", new byte[50_000]).gzip())))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("read bytes limit of 20000");
  }

  @Test
  void manifestsAreDecodedWithTheCatalogsSafeYaml() {
    // deeper than the catalog parser allows (100 levels): refused as a catalog would be
    String bomb = "kind: A\nx: " + "[".repeat(150) + "]".repeat(150) + "\n";
    assertThatThrownBy(() -> unpack(new Layer().file("manifests/bomb.yaml", bomb).gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("manifests/bomb.yaml");
    assertThatThrownBy(
            () -> unpack(new Layer().file("manifests/x.yaml", "metadata: {name: x}\n").gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("no kind");
    assertThatThrownBy(
            () -> unpack(new Layer().file("manifests/x.yaml", "kind: [unclosed\n").gzip()))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("manifests/x.yaml");
  }

  @Test
  void aLayerThatIsNotATarIsRefused() {
    assertThatThrownBy(
            () -> unpack(new java.io.ByteArrayInputStream(new byte[] {0x1f, (byte) 0x8b, 1, 2, 3})))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("layer 0");
  }
}
