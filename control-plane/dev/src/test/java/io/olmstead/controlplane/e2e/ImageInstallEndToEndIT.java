package io.olmstead.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.registry.BundleImages;
import io.olmstead.controlplane.registry.ImagePusher;
import io.olmstead.controlplane.registry.TestRegistry;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real catalogs end to end: a catalog whose bundles carry no {@code olm.bundle.object}, only images
 * in a real registry; the control plane unpacks each image once, simulated clusters (which never
 * see the registry) install etcd 0.9.2 and upgrade to 0.9.4 from the unpacked objects.
 */
class ImageInstallEndToEndIT {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final ObjectMapper JSON = new ObjectMapper();
  static final int CLUSTERS = 2;
  static TestRegistry registry;
  static TestControlPlane cp;
  static DevSimulation simulation;

  @BeforeAll
  static void start() throws Exception {
    DeclarativeConfig bundled = BundleImages.bundledCatalog();
    registry = TestRegistry.start();
    cp =
        TestControlPlane.start(
            TestDatabase.create(ImageInstallEndToEndIT.class),
            Map.of(
                RegistrySettings.INSECURE, registry.host(), RegistrySettings.SWEEP_SECONDS, "1"));
    Map<String, String> images = new HashMap<>();
    for (Bundle b : bundled.bundles()) {
      if (b.packageName().equals("etcd")) {
        images.put(b.name(), BundleImages.push(registry, b));
      }
    }
    assertThat(send("PUT", "/api/v1/catalogs/images", "application/json", "{}").statusCode())
        .isEqualTo(201);
    HttpResponse<String> upload =
        send(
            "POST",
            "/api/v1/catalogs/images/revisions",
            "application/x-ndjson",
            imagesOnly(images));
    assertThat(upload.statusCode()).as(upload.body()).isEqualTo(201);
    simulation =
        DevSimulation.start(
            cp.controlPlane().vertx(),
            cp.controlPlane().pool(),
            URI.create(cp.baseUrl()),
            CLUSTERS,
            List.of(),
            Duration.ofMillis(300));
  }

  /**
   * bundled/etcd as NDJSON with every bundle's objects removed and its image pointing at the test
   * registry.
   */
  /**
   * Pushes every etcd bundle of bundled/ to {@code registry} and uploads a catalog {@code catalog}
   * naming them only by image; the images by bundle name.
   */
  static Map<String, String> etcdImagesCatalog(TestRegistry registry, ApiClient api, String catalog)
      throws Exception {
    Map<String, String> images = new HashMap<>();
    for (Bundle b : BundleImages.bundledCatalog().bundles()) {
      if (b.packageName().equals("etcd")) {
        images.put(b.name(), BundleImages.push(registry, b));
      }
    }
    String admin = TestControlPlane.ADMIN_TOKEN;
    assertThat(api.json("PUT", "/api/v1/catalogs/" + catalog, admin, new JsonObject()).status())
        .isEqualTo(201);
    var upload =
        api.send(
            "POST",
            "/api/v1/catalogs/" + catalog + "/revisions",
            admin,
            "application/x-ndjson",
            imagesOnly(images).getBytes(java.nio.charset.StandardCharsets.UTF_8),
            Map.of());
    assertThat(upload.status()).as(upload.body()).isEqualTo(201);
    return images;
  }

  static String imagesOnly(Map<String, String> images) throws Exception {
    return imagesOnly(images, List.of("etcd"));
  }

  /** As {@link #imagesOnly(Map)} for the given packages of bundled/, in order. */
  static String imagesOnly(Map<String, String> images, List<String> packages) throws Exception {
    StringBuilder out = new StringBuilder();
    for (String pkg : packages) {
      var docs =
          JSON.readerFor(JsonNode.class)
              .readValues(
                  Files.readString(
                      CatalogFixtures.sharedCatalogs()
                          .orElseThrow()
                          .resolve("bundled/" + pkg + "/catalog.json")));
      while (docs.hasNext()) {
        ObjectNode doc = (ObjectNode) docs.next();
        if ("olm.bundle".equals(doc.path("schema").asText())) {
          doc.put("image", images.get(doc.path("name").asText()));
          ArrayNode kept = JSON.createArrayNode();
          doc.path("properties")
              .forEach(
                  p -> {
                    if (!"olm.bundle.object".equals(p.path("type").asText())) {
                      kept.add(p);
                    }
                  });
          doc.set("properties", kept);
        }
        out.append(JSON.writeValueAsString(doc)).append('\n');
      }
    }
    assertThat(out).doesNotContain("olm.bundle.object");
    return out.toString();
  }

  @AfterAll
  static void stop() {
    if (simulation != null) {
      simulation.close();
    }
    if (cp != null) {
      cp.close();
    }
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void clustersInstallAndUpgradeFromBundleImagesPulledOncePerFleet() throws Exception {
    assertThat(putSubscription("0.9.2").statusCode()).isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> allAt("0.9.2"));
    assertThat(putSubscription("0.9.4").statusCode()).isEqualTo(200);
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> allAt("0.9.4"));
    // every blob the registry served was served once: clusters got the objects from the control
    // plane
    List<String> blobGets =
        Files.readAllLines(registry.log()).stream()
            .filter(l -> l.contains("\"GET /v2/bundles/etcd/blobs/sha256:"))
            .map(l -> l.replaceAll(".*blobs/", "").replaceAll(" .*", ""))
            .toList();
    assertThat(blobGets).isNotEmpty().doesNotHaveDuplicates();
    // the package resource shows each bundle's image and its unpack state
    JsonObject etcd =
        new JsonObject(send("GET", "/api/v1/catalogs/images/packages/etcd", null, null).body());
    JsonObject channel =
        etcd.getJsonArray("channels").stream()
            .map(JsonObject.class::cast)
            .filter(c -> c.getString("name").equals("singlenamespace-alpha"))
            .findFirst()
            .orElseThrow();
    JsonObject v094 =
        channel.getJsonArray("entries").stream()
            .map(JsonObject.class::cast)
            .filter(e -> e.getString("name").equals("etcdoperator.v0.9.4"))
            .findFirst()
            .orElseThrow();
    assertThat(v094.getString("unpack")).isEqualTo("Unpacked");
    assertThat(v094.getString("image")).contains("@sha256:");
  }

  @Test
  void aBundleImageThatCannotBeUnpackedFailsClustersWithTheRegistrysMessage() throws Exception {
    Map<String, String> absent = new HashMap<>();
    for (String name :
        List.of(
            "etcdoperator.v0.6.1",
            "etcdoperator.v0.9.0",
            "etcdoperator.v0.9.2",
            "etcdoperator.v0.9.4",
            "etcdoperator.v0.9.2-clusterwide",
            "etcdoperator.v0.9.4-clusterwide")) {
      absent.put(name, registry.host() + "/bundles/absent@" + ImagePusher.digest(name.getBytes()));
    }
    send("PUT", "/api/v1/catalogs/broken", "application/json", "{}");
    assertThat(
            send(
                    "POST",
                    "/api/v1/catalogs/broken/revisions",
                    "application/x-ndjson",
                    imagesOnly(absent))
                .statusCode())
        .isEqualTo(201);
    JsonObject spec =
        new JsonObject()
            .put("catalog", "broken")
            .put("package", "etcd")
            .put("channel", "singlenamespace-alpha")
            .put("namespace", "etcd-broken")
            .put("targetNamespaces", new JsonArray().add("etcd-broken"))
            .put("placement", new JsonObject().put("selector", "env=dev"))
            .put("version", new JsonObject().put("pin", "0.9.2"))
            .put("approval", "Automatic");
    assertThat(
            send("PUT", "/api/v1/subscriptions/etcd-broken", "application/json", spec.encode())
                .statusCode())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              JsonArray items =
                  new JsonObject(
                          send("GET", "/api/v1/subscriptions/etcd-broken/status", null, null)
                              .body())
                      .getJsonArray("items");
              return items.size() == CLUSTERS
                  && items.stream()
                      .map(JsonObject.class::cast)
                      .allMatch(
                          i ->
                              "Failed".equals(i.getString("phase"))
                                  && "BundleUnpackFailed".equals(i.getString("reason"))
                                  && i.getString("message", "").contains("not found"));
            });
  }

  static boolean allAt(String version) throws Exception {
    JsonObject status =
        new JsonObject(send("GET", "/api/v1/subscriptions/etcd/status", null, null).body());
    JsonArray items = status.getJsonArray("items");
    return items.size() == CLUSTERS
        && items.stream()
            .map(JsonObject.class::cast)
            .allMatch(
                i ->
                    "Succeeded".equals(i.getString("phase"))
                        && version.equals(i.getString("installedVersion")));
  }

  static HttpResponse<String> putSubscription(String pin) throws Exception {
    JsonObject spec =
        new JsonObject()
            .put("catalog", "images")
            .put("package", "etcd")
            .put("channel", "singlenamespace-alpha")
            .put("namespace", "etcd")
            .put("targetNamespaces", new JsonArray().add("etcd"))
            .put("placement", new JsonObject().put("selector", "env=dev"))
            .put("version", new JsonObject().put("pin", pin))
            .put("approval", "Automatic");
    return send("PUT", "/api/v1/subscriptions/etcd", "application/json", spec.encode());
  }

  static HttpResponse<String> send(String method, String path, String type, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN);
    if (type != null) {
      b.header("Content-Type", type);
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
