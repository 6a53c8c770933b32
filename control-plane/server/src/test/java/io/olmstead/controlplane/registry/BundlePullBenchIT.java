package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.olmcore.bundle.BundleLimits;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}): pull + unpack of the 29 bundle images of
 * {@code bundled/} from a local registry, one after the other, against {@code skopeo copy} of the
 * same images to an OCI directory.
 */
class BundlePullBenchIT {

  @Test
  void pullAndUnpackAgainstSkopeoCopy() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/skopeo")), "skopeo is not installed");
    DeclarativeConfig catalog = BundleImages.bundledCatalog();
    try (TestRegistry registry = TestRegistry.start()) {
      List<String> images = new ArrayList<>();
      for (Bundle b : catalog.bundles()) {
        images.add(BundleImages.push(registry, b));
      }
      assertThat(images).hasSize(29);
      RegistrySettings settings = RegistrySettings.defaults(registry.host());
      for (int round = 1; round <= 3; round++) {
        long t0 = System.nanoTime();
        BundlePull pull = new BundlePull(settings, BundleLimits.defaults());
        long objects = 0;
        for (String image : images) {
          try (OciPuller puller =
              new OciPuller(settings)) { // one puller per operation, as RegistryPool does
            objects += pull.pull(puller, image, image.substring(image.indexOf('@') + 1)).count();
          }
        }
        long ours = System.nanoTime() - t0;
        Path oci = Files.createTempDirectory("skopeo-bench");
        long t1 = System.nanoTime();
        int n = 0;
        for (String image : images) {
          Process p =
              new ProcessBuilder(
                      "skopeo",
                      "copy",
                      "--quiet",
                      "--src-tls-verify=false",
                      "docker://" + image,
                      "oci:" + oci + ":b" + n++)
                  .redirectErrorStream(true)
                  .start();
          String out = new String(p.getInputStream().readAllBytes());
          assertThat(p.waitFor()).as(out).isZero();
        }
        long skopeo = System.nanoTime() - t1;
        System.out.printf(
            "BENCH round %d: olmstead pull+unpack %d images (%d objects) %d ms; skopeo copy %d ms;"
                + " ratio %.2f%n",
            round,
            images.size(),
            objects,
            ours / 1_000_000,
            skopeo / 1_000_000,
            (double) ours / skopeo);
      }
    }
  }
}
