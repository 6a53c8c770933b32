package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pulls refuse unlisted loopback registries before connecting, and manifests over the limit before
 * reading them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RegistryGuardsIT {
  static TestRegistry registry;
  static String image;

  @BeforeAll
  static void start() {
    registry = TestRegistry.start();
    byte[] layer =
        CatalogFixtures.tarGz(
            Map.of("manifests/a.yaml", "kind: ConfigMap\n".getBytes(StandardCharsets.UTF_8)));
    registry
        .pusher()
        .image("guarded/app", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    image = registry.host() + "/guarded/app:v1";
  }

  @AfterAll
  static void stop() {
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void anUnlistedLoopbackRegistryIsRefusedWithoutConnecting() {
    try (StuckRegistry probe = StuckRegistry.silent();
        OciPuller p = new OciPuller(RegistrySettings.defaults())) {
      assertThatThrownBy(() -> p.resolve(probe.host() + "/a/b:c"))
          .isInstanceOfSatisfying(
              RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.INVALID))
          .hasMessageContaining(probe.host())
          .hasMessageContaining(RegistrySettings.ALLOW_LOCAL);
      assertThat(probe.connections()).isZero();
    }
  }

  @Test
  void aHostNameThatResolvesToLoopbackIsRefusedToo() throws Exception {
    String name = InetAddress.getLocalHost().getHostName();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        InetAddress.getByName(name).isLoopbackAddress(),
        "this machine's name does not resolve to a loopback address");
    try (OciPuller p = new OciPuller(RegistrySettings.defaults(registry.host()))) {
      assertThatThrownBy(() -> p.resolve(name + ":" + registry.port() + "/guarded/app:v1"))
          .isInstanceOfSatisfying(
              RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.INVALID))
          .hasMessageContaining(RegistrySettings.ALLOW_LOCAL);
    }
  }

  @Test
  void aListedLoopbackRegistryIsServed() {
    try (OciPuller p = new OciPuller(RegistrySettings.defaults(registry.host()))) {
      assertThat(p.resolve(image).source()).isEqualTo(image);
    } catch (RegistryException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aManifestOverTheLimitIsRefusedWithAClearMessage() {
    RegistrySettings small =
        RegistrySettings.defaults(registry.host()).withLimits(100, 1 << 20, 64);
    try (OciPuller p = new OciPuller(small)) {
      assertThatThrownBy(() -> p.resolve(image))
          .isInstanceOfSatisfying(
              RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE))
          .hasMessageContaining("over the limit of 100 bytes")
          .hasMessageContaining(RegistrySettings.MAX_MANIFEST_BYTES);
    }
  }

  @Test
  void anEndlessManifestIsCutAtTheLimitAndItsConnectionClosedWithoutReadingOn() {
    long limit = 64 << 10;
    EndlessManifest endless = new EndlessManifest();
    try (StuckRegistry server = StuckRegistry.endlessManifest(endless);
        OciPuller p =
            new OciPuller(
                RegistrySettings.defaults(server.host()).withLimits(limit, 1 << 20, 64))) {
      assertThatThrownBy(() -> p.resolve(server.host() + "/endless/app:v1"))
          .isInstanceOfSatisfying(
              RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE))
          .hasMessageContaining("over the limit of " + limit + " bytes")
          .hasMessageContaining(RegistrySettings.MAX_MANIFEST_BYTES);
      await().atMost(Duration.ofSeconds(20)).until(endless::clientGone);
      System.out.printf(
          "endless manifest: %d bytes served against a limit of %d%n", endless.served(), limit);
      // what the client read up to the limit, plus what the two kernels' socket buffers held when
      // it hung up
      assertThat(endless.served()).as("manifest bytes served").isLessThan(limit + (16L << 20));
    }
  }
}
