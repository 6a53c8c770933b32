package io.olmstead.controlplane.catalog;

import static io.olmstead.controlplane.catalog.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Uploads the real catalogs of ../shared/catalogs (skipped when absent): community-v4.20 as JSON
 * Lines (timed, with the JVM's peak heap), one package's catalog.yaml, and bundled/ as a tar.gz
 * built here.
 */
class SharedCatalogsIT {
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    SharedFolder.require("catalogs");
    cp = TestControlPlane.start(SharedCatalogsIT.class);
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  @Test
  void community420JsonLinesUploadsAndIsMeasured() throws Exception {
    Path file = SharedFolder.require("catalogs/community-v4.20.jsonl");
    byte[] content = Files.readAllBytes(file);
    assertThat(api.putJson("/catalogs/community", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);

    System.gc();
    long baseline = usedHeap();
    resetPeaks();
    long start = System.nanoTime();
    HttpResponse<String> response =
        api.post("/catalogs/community/revisions", content, "application/x-ndjson");
    long millis = (System.nanoTime() - start) / 1_000_000;
    long peak = peakHeap();
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    JsonObject revision = json(response);
    assertThat(revision.getInteger("packages")).isEqualTo(37);
    assertThat(revision.getInteger("bundles")).isEqualTo(803);
    assertThat(revision.getString("digest")).isEqualTo(CatalogDigest.of(content));
    System.out.printf(
        "MEASURE community-v4.20.jsonl upload: %d bytes, %d ms, JVM heap before %d MiB, peak %d MiB "
            + "(peak over baseline %d MiB; client and server share this JVM)%n",
        content.length, millis, baseline >> 20, peak >> 20, (peak - baseline) >> 20);

    long againStart = System.nanoTime();
    HttpResponse<String> again =
        api.post("/catalogs/community/revisions", content, "application/x-ndjson");
    assertThat(again.statusCode()).isEqualTo(200);
    System.out.printf(
        "MEASURE identical re-upload: %d ms%n", (System.nanoTime() - againStart) / 1_000_000);

    JsonObject path = json(api.get("/catalogs/community/packages"));
    assertThat(path.getJsonArray("items")).isNotEmpty();
  }

  @Test
  void onePackagesCatalogYamlUploads() throws Exception {
    Path dir = SharedFolder.require("catalogs/community-v4.20");
    Path yaml;
    try (var list = Files.list(dir)) {
      yaml =
          list.sorted()
              .map(p -> p.resolve("catalog.yaml"))
              .filter(Files::isRegularFile)
              .findFirst()
              .orElseThrow();
    }
    assertThat(api.putJson("/catalogs/one-yaml", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
    HttpResponse<String> response =
        api.post("/catalogs/one-yaml/revisions", Files.readAllBytes(yaml), "application/yaml");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    assertThat(json(response).getInteger("packages")).isEqualTo(1);
  }

  @Test
  void bundledDirectoryUploadsAsTarGzAndAnswersUpgradePaths() {
    Path dir = SharedFolder.require("catalogs/bundled");
    byte[] tar = CatalogFixtures.tarGz(dir);
    assertThat(api.putJson("/catalogs/bundled", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
    HttpResponse<String> response =
        api.post("/catalogs/bundled/revisions", tar, "application/gzip");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    assertThat(json(response).getInteger("packages")).isEqualTo(5);
    assertThat(json(response).getInteger("bundles")).isEqualTo(29);

    JsonObject etcd = json(api.get("/catalogs/bundled/packages/etcd"));
    JsonObject channel = etcd.getJsonArray("channels").getJsonObject(0);
    String tail =
        channel.getJsonArray("entries").stream()
            .map(JsonObject.class::cast)
            .map(e -> e.getString("name"))
            .sorted()
            .findFirst()
            .orElseThrow();
    HttpResponse<String> path =
        api.get(
            "/catalogs/bundled/packages/etcd/channels/"
                + channel.getString("name")
                + "/upgrade-path?from="
                + tail);
    assertThat(path.statusCode()).as(path.body()).isEqualTo(200);
  }

  private static long usedHeap() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
