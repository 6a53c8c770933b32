package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.olmstead.olmcore.tar.TarFormat;
import io.olmstead.olmcore.tar.TarLimits;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /bundles} and {@code GET /bundles/{digest}} against a real registry and a real
 * database.
 */
class BundleUnpackIT {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static TestRegistry registry;
  static TestControlPlane cp;
  static DeclarativeConfig catalog;

  @BeforeAll
  static void start() throws Exception {
    catalog = BundleImages.bundledCatalog();
    registry = TestRegistry.start();
    cp =
        TestControlPlane.start(
            TestDatabase.create(BundleUnpackIT.class),
            Map.of(RegistrySettings.INSECURE, registry.host()));
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
    if (registry != null) {
      registry.close();
    }
  }

  static HttpResponse<String> post(String image) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/bundles"))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(new JsonObject().put("image", image).encode()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static JsonObject get(String digest) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/bundles/" + digest))
                .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new JsonObject()
        .put("status", r.statusCode())
        .put("body", r.statusCode() == 200 ? new JsonObject(r.body()) : new JsonObject());
  }

  static JsonObject settled(String digest) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> get(digest).getJsonObject("body"),
            b -> b.getString("state", "").matches("Unpacked|Failed"));
  }

  static String digestOf(String image) {
    return image.substring(image.indexOf('@') + 1);
  }

  @Test
  void unpacksABundleImageOnceForConcurrentRequests() throws Exception {
    Bundle etcd = BundleImages.bundle(catalog, "etcdoperator.v0.9.4");
    String image = BundleImages.push(registry, etcd);
    long before = manifestGets(digestOf(image));
    List<CompletableFuture<HttpResponse<String>>> calls =
        IntStream.range(0, 8)
            .mapToObj(
                i ->
                    CompletableFuture.supplyAsync(
                        () -> {
                          try {
                            return post(image);
                          } catch (Exception e) {
                            throw new IllegalStateException(e);
                          }
                        }))
            .toList();
    for (CompletableFuture<HttpResponse<String>> c : calls) {
      assertThat(c.get().statusCode()).isEqualTo(202);
    }
    JsonObject state = settled(digestOf(image));
    assertThat(state.getString("state")).isEqualTo("Unpacked");
    assertThat(state.getInteger("objects")).isEqualTo(etcd.objects().size());
    assertThat(state.getInteger("attempts")).isEqualTo(1);
    // one pull: the manifest by digest was fetched once, however many asked, and asking again pulls
    // nothing
    assertThat(post(image).statusCode()).isEqualTo(202);
    assertThat(settled(digestOf(image)).getInteger("attempts")).isEqualTo(1);
    assertThat(manifestGets(digestOf(image)) - before).isEqualTo(1);
  }

  @Test
  void anImageMissingFromTheRegistryFailsWithTheRegistrysAnswer() throws Exception {
    String image = registry.host() + "/bundles/absent@sha256:" + "a".repeat(64);
    assertThat(post(image).statusCode()).isEqualTo(202);
    JsonObject state = settled(digestOf(image));
    assertThat(state.getString("state")).isEqualTo("Failed");
    assertThat(state.getString("message")).contains("not found").contains("bundles/absent");
  }

  @Test
  void anImageWithoutManifestsIsNotABundle() throws Exception {
    String digest =
        registry
            .pusher()
            .image(
                "catalogs/not-a-bundle",
                "v1",
                ImagePusher.OCI_MANIFEST,
                Map.of(),
                List.of(
                    CatalogFixtures.tarGz(Map.of("configs/etcd/catalog.json", "{}".getBytes()))));
    String image = registry.host() + "/catalogs/not-a-bundle@" + digest;
    post(image);
    JsonObject state = settled(digest);
    assertThat(state.getString("state")).isEqualTo("Failed");
    assertThat(state.getString("message")).contains("not a bundle image");
    // a failing bundle blocks no other: the next one unpacks
    String good = BundleImages.push(registry, BundleImages.bundle(catalog, "etcdoperator.v0.9.2"));
    post(good);
    assertThat(settled(digestOf(good)).getString("state")).isEqualTo("Unpacked");
  }

  static JsonObject failed(byte[] layer, String repository) throws Exception {
    String digest =
        registry
            .pusher()
            .image(repository, "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    assertThat(post(registry.host() + "/" + repository + "@" + digest).statusCode()).isEqualTo(202);
    JsonObject state = settled(digest);
    assertThat(state.getString("state")).isEqualTo("Failed");
    return state;
  }

  @Test
  void aBundleImageOfLinksToOneBigManifestFailsAtTheKeptBytesLimit() throws Exception {
    assertThat(
            failed(HostileImages.linkBomb("manifests", 2 << 20, 200), "hostile/links")
                .getString("message"))
        .contains("kept bytes limit of " + TarLimits.bundleImage().maxKeptBytes());
  }

  @Test
  void aBundleImageWithAHugePaxHeaderFailsAtTheHeaderSizeLimit() throws Exception {
    assertThat(failed(HostileImages.hugePaxHeader(1 << 20), "hostile/pax").getString("message"))
        .contains("header size limit of " + TarLimits.bundleImage().maxHeaderBytes());
  }

  @Test
  void aLayerThatIsNotTarFailsWhileItDownloads() throws Exception {
    assertThat(failed(HostileImages.notTar(8 << 20), "hostile/nottar").getString("message"))
        .contains("is not a tar stream")
        .contains("stopped after " + TarFormat.PREFIX_BYTES + " bytes");
  }

  @Test
  void anImageNotPinnedByDigestIsRefusedNamingTheField() throws Exception {
    HttpResponse<String> r = post(registry.host() + "/bundles/etcd:latest");
    assertThat(r.statusCode()).isEqualTo(422);
    assertThat(r.body()).contains("/image");
    assertThat(get("sha256:" + "b".repeat(64)).getInteger("status")).isEqualTo(404);
  }

  private static long manifestGets(String digest) throws Exception {
    return Files.readAllLines(registry.log()).stream()
        .filter(l -> l.contains("GET /v2/") && l.contains("/manifests/" + digest))
        .count();
  }
}
