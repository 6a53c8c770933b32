package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.MirrorRules;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OciPullerIT {

  static TestRegistry registry;
  static ImagePusher push;
  static byte[] layer =
      CatalogFixtures.tarGz(
          Map.of("manifests/a.yaml", "kind: ConfigMap\n".getBytes(StandardCharsets.UTF_8)));

  @TempDir Path tmp;

  @BeforeAll
  static void start() {
    registry = TestRegistry.start();
    push = registry.pusher();
  }

  @AfterAll
  static void stop() {
    if (registry != null) {
      registry.close();
    }
  }

  OciPuller puller() {
    return new OciPuller(RegistrySettings.defaults(registry.host()));
  }

  @Test
  void resolvesATagToTheManifestDigestAndFetchesVerifiedLayers() throws Exception {
    String digest =
        push.image("bundles/etcd", "0.9.2", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    ImageManifest image = puller().resolve(registry.host() + "/bundles/etcd:0.9.2");
    assertThat(image.digest()).isEqualTo(digest);
    assertThat(image.manifestDigest()).isEqualTo(digest);
    assertThat(image.layers())
        .containsExactly(new ImageManifest.Blob(ImagePusher.digest(layer), layer.length));
    Path out = tmp.resolve("layer");
    puller().fetchBlob(image, image.layers().get(0), 1 << 20, out);
    assertThat(Files.readAllBytes(out)).isEqualTo(layer);
    assertThat(puller().resolve(registry.host() + "/bundles/etcd@" + digest).digest())
        .isEqualTo(digest);
  }

  @Test
  void readsDockerV2Manifests() throws Exception {
    String digest =
        push.image(
            "bundles/docker", "v1", ImagePusher.DOCKER_MANIFEST, Map.of("a", "b"), List.of(layer));
    ImageManifest image = puller().resolve(registry.host() + "/bundles/docker:v1");
    assertThat(image.digest()).isEqualTo(digest);
    assertThat(new String(puller().readBlob(image, image.config()), StandardCharsets.UTF_8))
        .contains("\"a\":\"b\"");
  }

  @Test
  void choosesTheLinuxAmd64ManifestOfAnIndex() throws Exception {
    byte[] armLayer = CatalogFixtures.tarGz(Map.of("arm", new byte[] {1}));
    String arm =
        push.image("multi/app", "arm", ImagePusher.OCI_MANIFEST, Map.of(), List.of(armLayer));
    String amd = push.image("multi/app", "amd", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    String index =
        "{\"schemaVersion\":2,\"mediaType\":\""
            + ImagePusher.OCI_INDEX
            + "\",\"manifests\":["
            + platform(arm, "arm64")
            + ","
            + platform(amd, "amd64")
            + "]}";
    String indexDigest =
        push.manifest(
            "multi/app", "latest", ImagePusher.OCI_INDEX, index.getBytes(StandardCharsets.UTF_8));
    ImageManifest image = puller().resolve(registry.host() + "/multi/app:latest");
    assertThat(image.digest()).isEqualTo(indexDigest);
    assertThat(image.manifestDigest()).isEqualTo(amd);
    assertThat(image.layers())
        .extracting(ImageManifest.Blob::digest)
        .containsExactly(ImagePusher.digest(layer));
  }

  private static String platform(String digest, String arch) {
    return "{\"mediaType\":\""
        + ImagePusher.OCI_MANIFEST
        + "\",\"digest\":\""
        + digest
        + "\",\"size\":1,"
        + "\"platform\":{\"architecture\":\""
        + arch
        + "\",\"os\":\"linux\"}}";
  }

  @Test
  void anUnknownTagOrRepositoryIsNotFound() {
    push.image("bundles/known", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    assertThatThrownBy(() -> puller().resolve(registry.host() + "/bundles/known:v2"))
        .isInstanceOfSatisfying(
            RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND))
        .hasMessageContaining("bundles/known");
    assertThatThrownBy(() -> puller().resolve(registry.host() + "/nothing/here:v1"))
        .isInstanceOfSatisfying(
            RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
  }

  @Test
  void aBlobWhoseBytesDoNotMatchItsDigestIsRefused() throws Exception {
    byte[] own = CatalogFixtures.tarGz(Map.of("corrupt-me", new byte[] {7}));
    push.image("bundles/corrupt", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(own));
    ImageManifest image = puller().resolve(registry.host() + "/bundles/corrupt:v1");
    Files.write(
        registry.blobData(ImagePusher.digest(own)),
        CatalogFixtures.tarGz(Map.of("evil", new byte[] {6})));
    assertThatThrownBy(
            () -> puller().fetchBlob(image, image.layers().get(0), 1 << 20, tmp.resolve("x")))
        .isInstanceOfSatisfying(
            RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.DIGEST_MISMATCH));
  }

  @Test
  void aBlobOverTheLimitIsRefused() throws Exception {
    push.image("bundles/big", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    ImageManifest image = puller().resolve(registry.host() + "/bundles/big:v1");
    assertThatThrownBy(() -> puller().fetchBlob(image, image.layers().get(0), 10, tmp.resolve("x")))
        .isInstanceOfSatisfying(
            RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE));
    // a registry that lies about the size is stopped at the limit as well
    ImageManifest lying =
        new ImageManifest(
            image.source(),
            image.digest(),
            image.manifestDigest(),
            image.config(),
            List.of(new ImageManifest.Blob(image.layers().get(0).digest(), 5)));
    assertThatThrownBy(() -> puller().fetchBlob(lying, lying.layers().get(0), 10, tmp.resolve("y")))
        .isInstanceOfSatisfying(
            RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE));
  }

  @Test
  void aPlainHttpRegistryNotListedAsInsecureIsRefused() {
    push.image("bundles/secure", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    OciPuller strict =
        new OciPuller(
            RegistrySettings.defaults()
                .withAllowLocal(registry.host())
                .withTimeout(Duration.ofSeconds(3)));
    assertThatThrownBy(() -> strict.resolve(registry.host() + "/bundles/secure:v1"))
        .isInstanceOfSatisfying(
            RegistryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE));
  }

  @Test
  void aRegistryThatIsDownIsUnreachable() throws Exception {
    String down = "127.0.0.1:" + TestRegistry.freePort();
    OciPuller p = new OciPuller(RegistrySettings.defaults(down).withTimeout(Duration.ofSeconds(2)));
    assertThatThrownBy(() -> p.resolve(down + "/a/b:c"))
        .isInstanceOfSatisfying(
            RegistryException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
              assertThat(e.kind().retryable()).isTrue();
            })
        .hasMessageContaining(down);
  }

  @Test
  void aMirrorAnswersForItsSource() throws Exception {
    String digest =
        push.image("mirror/org/etcd", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    MirrorRules rules =
        new MirrorRules(
            List.of(
                new MirrorRules.Rule(
                    "quay.example.invalid/org", List.of(registry.host() + "/mirror/org"))));
    OciPuller p = new OciPuller(RegistrySettings.defaults(registry.host()).withMirrors(rules));
    ImageManifest image = p.resolve("quay.example.invalid/org/etcd:v1");
    assertThat(image.digest()).isEqualTo(digest);
    assertThat(image.source()).isEqualTo(registry.host() + "/mirror/org/etcd:v1");
  }
}
