package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistryAuthIT {

  static final String PASSWORD = "s3cret-Pa55word";
  static TestRegistry registry;
  static String digest;
  static byte[] layer = CatalogFixtures.tarGz(Map.of("manifests/x.yaml", new byte[] {'a'}));

  @TempDir Path tmp;

  @BeforeAll
  static void start() {
    registry = TestRegistry.start("olmstead", PASSWORD);
    digest =
        registry
            .pusher()
            .image("private/etcd", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
  }

  @AfterAll
  static void stop() {
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void pullsWithBasicCredentialsFromAnAuthFile() throws Exception {
    RegistrySettings s =
        RegistrySettings.defaults(registry.host())
            .withAuthFile(registry.writeAuthFile("olmstead", PASSWORD));
    OciPuller p = new OciPuller(s);
    ImageManifest image = p.resolve(registry.host() + "/private/etcd:v1");
    assertThat(image.digest()).isEqualTo(digest);
    p.fetchBlob(image, image.layers().get(0), 1 << 20, tmp.resolve("l"));
    assertThat(Files.readAllBytes(tmp.resolve("l"))).isEqualTo(layer);
  }

  @Test
  void withoutCredentialsTheRegistryDeniesAndTheMessageNamesIt() {
    OciPuller p = new OciPuller(RegistrySettings.defaults(registry.host()));
    assertThatThrownBy(() -> p.resolve(registry.host() + "/private/etcd:v1"))
        .isInstanceOfSatisfying(
            RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.DENIED))
        .hasMessageContaining(registry.host());
  }

  @Test
  void aWrongPasswordIsDeniedWithoutQuotingIt() {
    OciPuller p =
        new OciPuller(
            RegistrySettings.defaults(registry.host())
                .withAuthFile(registry.writeAuthFile("olmstead", "wrong-password-123")));
    assertThatThrownBy(() -> p.resolve(registry.host() + "/private/etcd:v1"))
        .isInstanceOfSatisfying(
            RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.DENIED))
        .hasMessageContaining(registry.host())
        .hasMessageNotContaining("wrong-password-123");
  }
}
