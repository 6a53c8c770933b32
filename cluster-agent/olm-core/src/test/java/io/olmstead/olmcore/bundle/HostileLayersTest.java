package io.olmstead.olmcore.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.olmcore.tar.TarLimits;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;

/**
 * Hostile bundle and catalog images end with a message naming the limit they broke, before anything
 * is kept.
 */
class HostileLayersTest {

  private static final int MIB = 1 << 20;

  final BundleUnpacker unpacker = new BundleUnpacker(BundleLimits.defaults());

  @Test
  void symbolicLinksToOneBigManifestCountItsSizeEachTimeAndStopAtTheKeptBytesLimit() {
    assertThatThrownBy(() -> unpacker.unpack("b", List.of(HostileLayers.linkBomb(MIB, 200, true))))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("kept bytes limit");
  }

  @Test
  void hardLinksToOneBigManifestCountItsSizeEachTimeAndStopAtTheKeptBytesLimit() {
    assertThatThrownBy(() -> unpacker.unpack("b", List.of(HostileLayers.linkBomb(MIB, 200, false))))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("kept bytes limit");
  }

  @Test
  void aCatalogDirectoryFullOfLinksStopsAtTheKeptBytesLimit() {
    assertThatThrownBy(
            () ->
                ImageFiles.directory(
                    List.of(HostileLayers.linkBomb(MIB, 100, true)),
                    TarLimits.bundleImage(),
                    "/manifests"))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("kept bytes limit");
  }

  @Test
  void tooManyLinksStopAtTheLinkLimitEvenWhenTheyAreSmall() {
    assertThatThrownBy(() -> unpacker.unpack("b", List.of(HostileLayers.linkBomb(10, 1_001, true))))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("link limit of 1000");
  }

  @Test
  void linksWithinTheLimitsShareTheirTargetsBytesAndDecodedObject() throws Exception {
    UnpackedBundle b = unpacker.unpack("b", List.of(HostileLayers.linkBomb(1000, 3, true)));
    assertThat(b.objects()).hasSize(4);
    assertThat(b.objects()).allSatisfy(o -> assertThat(o).isSameAs(b.objects().get(0)));
  }

  @Test
  void aBaseLayersAbsoluteAndLibrarySymlinksOutsideTheKeptDirectoryDoNotRefuseACatalogImage()
      throws Exception {
    // a UBI-based catalog image: /etc/localtime -> /usr/share/zoneinfo/UTC, thousands of lib*.so
    // links
    Layer base = new Layer().symlink("etc/localtime", "/usr/share/zoneinfo/UTC");
    for (int i = 0; i < 1_500; i++) {
      base.symlink("usr/lib64/lib" + i + ".so", "lib" + i + ".so.1");
    }
    InputStream configs =
        new Layer()
            .file("configs/p/catalog.json", "{}")
            .symlink("configs/p/index.json", "catalog.json")
            .gzip();

    Map<String, byte[]> files =
        ImageFiles.directory(List.of(base.gzip(), configs), TarLimits.catalogImage(), "/configs");

    assertThat(files).containsOnlyKeys("p/catalog.json", "p/index.json");
    assertThat(files.get("p/index.json")).isSameAs(files.get("p/catalog.json"));
  }

  @Test
  void aKeptLinkClimbingOutOfTheRootIsStillRefused() {
    InputStream layer = new Layer().symlink("configs/p/x.json", "../../../etc/passwd").gzip();
    assertThatThrownBy(
            () -> ImageFiles.directory(List.of(layer), TarLimits.catalogImage(), "/configs"))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("links outside the image");
  }

  @Test
  void aGnuLongNameHeaderOverTheHeaderLimitStopsBeforeItIsBuffered() {
    assertThatThrownBy(
            () ->
                unpacker.unpack(
                    "b",
                    List.of(HostileLayers.hugeHeader(TarConstants.LF_GNUTYPE_LONGNAME, 64L * MIB))))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("header size limit of 65536");
  }

  @Test
  void aPaxHeaderOverTheHeaderLimitStopsBeforeItIsBuffered() {
    assertThatThrownBy(
            () ->
                unpacker.unpack(
                    "b",
                    List.of(
                        HostileLayers.hugeHeader(
                            TarConstants.LF_PAX_EXTENDED_HEADER_LC, 64L * MIB))))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("header size limit of 65536");
  }

  @Test
  void aLayerThatIsNotATarStreamIsRefusedAtItsFirstBlock() {
    assertThatThrownBy(() -> unpacker.unpack("b", List.of(HostileLayers.notTar(64L * MIB))))
        .isInstanceOf(BundleUnpackException.class)
        .hasMessageContaining("layer 0 is not a tar stream");
  }
}
