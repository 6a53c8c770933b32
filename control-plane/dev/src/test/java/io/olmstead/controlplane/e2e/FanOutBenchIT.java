package io.olmstead.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.registry.BundleImages;
import io.olmstead.controlplane.registry.TestRegistry;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}; {@code -Dolmstead.bench.clusters=N}, default
 * 200): N simulated clusters (as {@code dev --simulate N}) install etcd 0.9.2, once from a catalog
 * whose bundles carry only images in a local registry and once from the same catalog with embedded
 * objects, each on a fresh control plane and database. Prints the time from the subscription to all
 * N Succeeded for both, and the registry's blob requests.
 */
class FanOutBenchIT {
  static final String ADMIN = TestControlPlane.ADMIN_TOKEN;

  @Test
  void fleetInstallFromImagesAgainstEmbeddedObjects() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int clusters = Integer.getInteger("olmstead.bench.clusters", DevSimulation.MAX_CLUSTERS);
    DeclarativeConfig bundled = BundleImages.bundledCatalog();
    try (TestRegistry registry = TestRegistry.start()) {
      Map<String, String> images = new HashMap<>();
      for (Bundle b : bundled.bundles()) {
        if (b.packageName().equals("etcd")) {
          images.put(b.name(), BundleImages.push(registry, b));
        }
      }
      String embedded =
          Files.readString(
              CatalogFixtures.sharedCatalogs().orElseThrow().resolve("bundled/etcd/catalog.json"));
      long fromObjects = run("embedded", embedded, clusters, registry);
      long before = Files.readAllLines(registry.log()).size();
      long fromImages =
          run("images", ImageInstallEndToEndIT.imagesOnly(images), clusters, registry);
      List<String> blobGets =
          Files.readAllLines(registry.log()).stream()
              .skip(before)
              .filter(l -> l.contains("\"GET /v2/bundles/etcd/blobs/sha256:"))
              .map(l -> l.replaceAll(".*blobs/", "").replaceAll(" .*", ""))
              .toList();
      System.out.printf(
          "BENCH fan-out %d clusters: embedded objects %d ms; bundle images %d ms; ratio %.2f; "
              + "registry blob GETs %d (%d distinct)%n",
          clusters,
          fromObjects,
          fromImages,
          (double) fromImages / fromObjects,
          blobGets.size(),
          blobGets.stream().distinct().count());
      assertThat(blobGets).isNotEmpty().doesNotHaveDuplicates();
    }
  }

  /**
   * Subscription to all {@code clusters} Succeeded at etcd 0.9.2, in ms, on a fresh control plane.
   */
  private static long run(String name, String catalog, int clusters, TestRegistry registry)
      throws Exception {
    try (TestControlPlane cp =
        TestControlPlane.start(
            TestDatabase.create(FanOutBenchIT.class),
            Map.of(RegistrySettings.INSECURE, registry.host()))) {
      ApiClient api = new ApiClient(cp);
      assertThat(api.json("PUT", "/api/v1/catalogs/" + name, ADMIN, new JsonObject()).status())
          .isEqualTo(201);
      Response upload =
          api.send(
              "POST",
              "/api/v1/catalogs/" + name + "/revisions",
              ADMIN,
              "application/x-ndjson",
              catalog.getBytes(java.nio.charset.StandardCharsets.UTF_8),
              Map.of());
      assertThat(upload.status()).as(upload.body()).isEqualTo(201);
      try (DevSimulation sim =
          DevSimulation.start(
              cp.controlPlane().vertx(),
              cp.controlPlane().pool(),
              URI.create(cp.baseUrl()),
              clusters,
              List.of(),
              DevSimulation.DEFAULT_ROLLOUT_DELAY)) {
        await()
            .atMost(Duration.ofMinutes(5))
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(
                () ->
                    api.get("/api/v1/clusters?limit=500&status=connected", ADMIN).items().size()
                        == clusters);
        JsonObject spec =
            new JsonObject()
                .put("catalog", name)
                .put("package", "etcd")
                .put("channel", "singlenamespace-alpha")
                .put("namespace", "etcd")
                .put("targetNamespaces", new JsonArray().add("etcd"))
                .put("placement", new JsonObject().put("selector", "env=dev"))
                .put("version", new JsonObject().put("pin", "0.9.2"))
                .put("approval", "Automatic");
        long t0 = System.nanoTime();
        assertThat(api.json("PUT", "/api/v1/subscriptions/etcd", ADMIN, spec).status())
            .isEqualTo(201);
        await()
            .atMost(Duration.ofMinutes(10))
            .pollInterval(Duration.ofMillis(250))
            .ignoreExceptions()
            .until(
                () -> {
                  JsonObject byPhase =
                      api.get("/api/v1/subscriptions/etcd/status", ADMIN)
                          .json()
                          .getJsonObject("byPhase");
                  return byPhase != null && byPhase.getInteger("Succeeded", 0) == clusters;
                });
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf(
            "BENCH fan-out %s: %d clusters Succeeded %d ms after the subscription%n",
            name, clusters, ms);
        return ms;
      }
    }
  }
}
