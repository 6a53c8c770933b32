package io.olmstead.olmcore.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.olmcore.tar.TarLimits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ImageFilesTest {

  @Test
  void readsTheCatalogDirectoryAfterAllLayers() throws Exception {
    Map<String, byte[]> files =
        ImageFiles.directory(
            List.of(
                new Layer()
                    .file("configs/etcd/catalog.json", "{}")
                    .file("configs/old/catalog.json", "{}")
                    .file("bin/opm", "binary")
                    .gzip(),
                new Layer()
                    .file("configs/.wh.old", "")
                    .file("configs/redis/catalog.yaml", "a: b")
                    .gzip()),
            TarLimits.bundleImage(),
            "/configs");
    assertThat(files).containsOnlyKeys("etcd/catalog.json", "redis/catalog.yaml");
    assertThat(new String(files.get("redis/catalog.yaml"), StandardCharsets.UTF_8))
        .isEqualTo("a: b");
  }

  @Test
  void anImageWithoutTheDirectoryGivesNothingAndHostileEntriesAreRefused() throws Exception {
    assertThat(
            ImageFiles.directory(
                List.of(new Layer().file("manifests/a.yaml", "kind: A").gzip()),
                TarLimits.bundleImage(),
                "/configs"))
        .isEmpty();
    assertThatThrownBy(
            () ->
                ImageFiles.directory(
                    List.of(new Layer().symlink("configs/x", "/etc/passwd").gzip()),
                    TarLimits.bundleImage(),
                    "/configs"))
        .isInstanceOf(BundleUnpackException.class);
  }
}
