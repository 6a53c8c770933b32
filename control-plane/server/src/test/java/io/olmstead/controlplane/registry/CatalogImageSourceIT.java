package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.olmstead.olmcore.tar.TarLimits;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Catalog images as a catalog source: polled, a new revision when the digest changes, errors kept
 * visible.
 */
class CatalogImageSourceIT {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static TestRegistry registry;
  static StuckRegistry stuck;
  static TestControlPlane cp;

  @BeforeAll
  static void start() {
    registry = TestRegistry.start();
    stuck = StuckRegistry.silent();
    // one unpack worker, so a stuck unpack holds all of them (the poller must not need one); due
    // polls are taken
    // every second and the poll gauges read every two, not every 5 and 10 s
    cp =
        TestControlPlane.start(
            TestDatabase.create(CatalogImageSourceIT.class),
            Map.of(
                RegistrySettings.INSECURE,
                registry.host() + "," + stuck.host(),
                RegistrySettings.WORKERS,
                "1",
                RegistrySettings.TIMEOUT_SECONDS,
                "90",
                RegistrySettings.SWEEP_SECONDS,
                "1"));
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
    if (registry != null) {
      registry.close();
    }
    if (stuck != null) {
      stuck.close();
    }
  }

  static String pushCatalog(String repo, String tag, String dir, String fbc) {
    return registry
        .pusher()
        .image(
            repo,
            tag,
            ImagePusher.OCI_MANIFEST,
            Map.of(CatalogImagePull.CONFIGS_LABEL, "/" + dir),
            List.of(
                CatalogFixtures.tarGz(
                    Map.of(
                        dir + "/etcd/catalog.json",
                        fbc.getBytes(StandardCharsets.UTF_8),
                        "bin/opm",
                        new byte[] {1, 2, 3}))));
  }

  static HttpResponse<String> put(String name, String image, int interval) throws Exception {
    String body =
        new JsonObject()
            .put(
                "source", new JsonObject().put("image", image).put("pollIntervalSeconds", interval))
            .encode();
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/catalogs/" + name))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static JsonObject get(String name) throws Exception {
    return new JsonObject(
        HTTP.send(
                HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/catalogs/" + name))
                    .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body());
  }

  static JsonObject polled(String name) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(
            () -> get(name),
            c ->
                c.containsKey("lastPollAt")
                    && (c.containsKey("resolvedDigest") || c.containsKey("lastError")));
  }

  @Test
  void aCatalogImageBecomesARevisionAndANewDigestANewOne() throws Exception {
    String first = pushCatalog("catalogs/etcd", "latest", "configs", CatalogFixtures.etcdNdjson());
    HttpResponse<String> created = put("from-image", registry.host() + "/catalogs/etcd:latest", 60);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(
            new JsonObject(created.body())
                .getJsonObject("source")
                .getInteger("pollIntervalSeconds"))
        .isEqualTo(60);
    JsonObject catalog = polled("from-image");
    assertThat(catalog.getString("resolvedDigest")).isEqualTo(first);
    assertThat(catalog.getInteger("currentRevision")).isEqualTo(1);
    assertThat(catalog.containsKey("lastError")).isFalse();

    String second =
        pushCatalog(
            "catalogs/etcd",
            "latest",
            "configs",
            CatalogFixtures.etcdNdjson() + CatalogFixtures.redisNdjson());
    pollNow("from-image");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> second.equals(get("from-image").getString("resolvedDigest")));
    assertThat(get("from-image").getInteger("currentRevision")).isEqualTo(2);
  }

  @Test
  void anInvalidCatalogImageIsRefusedWithEveryErrorAndThePreviousRevisionStays() throws Exception {
    pushCatalog("catalogs/bad", "v1", "configs", CatalogFixtures.etcdNdjson());
    put("bad-image", registry.host() + "/catalogs/bad:v1", 60);
    assertThat(polled("bad-image").getInteger("currentRevision")).isEqualTo(1);
    String broken =
        "{\"schema\":\"olm.package\",\"name\":\"etcd\",\"defaultChannel\":\"stable\"}\n"
            + "{\"schema\":\"olm.channel\",\"package\":\"etcd\",\"name\":\"stable\",\"entries\":[{\"name\":\"etcd.v9\"}]}\n";
    pushCatalog("catalogs/bad", "v1", "configs", broken);
    pollNow("bad-image");
    JsonObject after =
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(300))
            .until(() -> get("bad-image"), c -> c.containsKey("lastError"));
    assertThat(after.getString("lastError")).contains("etcd.v9");
    assertThat(after.getInteger("currentRevision")).isEqualTo(1);
  }

  @Test
  void anImageWithoutTheCatalogDirectoryOrMissingIsAnErrorNotARevision() throws Exception {
    pushCatalog("catalogs/elsewhere", "v1", "other", CatalogFixtures.etcdNdjson());
    registry
        .pusher()
        .image(
            "catalogs/nodir",
            "v1",
            ImagePusher.OCI_MANIFEST,
            Map.of(),
            List.of(CatalogFixtures.tarGz(Map.of("etc/x", new byte[] {1}))));
    put("no-dir", registry.host() + "/catalogs/nodir:v1", 60);
    assertThat(polled("no-dir").getString("lastError"))
        .contains("no file-based catalog in /configs");
    put("missing", registry.host() + "/catalogs/absent:v1", 60);
    JsonObject missing = polled("missing");
    assertThat(missing.getString("lastError")).contains("not found");
    assertThat(missing.containsKey("currentRevision")).isFalse();
  }

  @Test
  void aCatalogImageOfLinksToOneBigFileIsAnErrorNamingTheKeptBytesLimit() throws Exception {
    registry
        .pusher()
        .image(
            "catalogs/links",
            "v1",
            ImagePusher.OCI_MANIFEST,
            Map.of(),
            List.of(HostileImages.linkBomb("configs", 8 << 20, 100)));
    put("links", registry.host() + "/catalogs/links:v1", 60);
    JsonObject links = polled("links");
    assertThat(links.getString("lastError"))
        .contains("kept bytes limit of " + TarLimits.catalogImage().maxKeptBytes());
    assertThat(links.containsKey("currentRevision")).isFalse();
  }

  @Test
  void aPollIntervalUnderAMinuteIsRefusedNamingTheField() throws Exception {
    HttpResponse<String> r = put("too-fast", registry.host() + "/catalogs/etcd:latest", 30);
    assertThat(r.statusCode()).isEqualTo(422);
    assertThat(r.body()).contains("/source/pollIntervalSeconds");
  }

  @Test
  void anUnpackStuckOnASilentRegistryDoesNotDelayAPoll() throws Exception {
    String digest = "sha256:" + "d".repeat(64);
    HttpResponse<String> held =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/bundles"))
                .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        new JsonObject().put("image", stuck.host() + "/b/x@" + digest).encode()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(held.statusCode()).as(held.body()).isEqualTo(202);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> stuck.connections() > 0); // the only unpack worker is taken
    String image = pushCatalog("catalogs/isolated", "v1", "configs", CatalogFixtures.etcdNdjson());
    put("isolated", registry.host() + "/catalogs/isolated:v1", 60);
    JsonObject polled =
        await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(300))
            .until(() -> get("isolated"), c -> c.containsKey("resolvedDigest"));
    assertThat(polled.getString("resolvedDigest")).isEqualTo(image);
    assertThat(stuck.connections()).isPositive();
  }

  @Test
  void aCatalogStuckInErrorShowsOnMetricsUntilAPollSucceeds() throws Exception {
    String series = "{catalog=\"watched\"}";
    put(
        "watched",
        registry.host() + "/catalogs/watched:v1",
        60); // not pushed yet: the registry answers 404
    assertThat(polled("watched").getString("lastError")).contains("not found");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () ->
                assertThat(metrics())
                    .contains(
                        "olmstead_catalog_poll_error" + series + " 1.0",
                        "olmstead_catalog_poll_last_success_timestamp_seconds" + series + " 0.0",
                        "olmstead_catalog_poll_failures_total" + series + " 1.0",
                        "olmstead_registry_requests_total{outcome=\"not_found\",registry=\""
                            + registry.host()
                            + "\"}"));

    // the alert rules on these metrics name only series this control plane exports
    Set<String> exported =
        new TreeSet<>(
            metrics()
                .lines()
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("[{ ]", 2)[0])
                .toList());
    Matcher used =
        Pattern.compile("\\bolmstead_(catalog|bundle|registry|webhook)_[a-z_]+")
            .matcher(
                Files.readString(
                    Path.of("..", "..", "deploy", "prometheus", "olmstead.rules.yaml")));
    Set<String> inRules = new TreeSet<>();
    while (used.find()) {
      inRules.add(used.group());
    }
    assertThat(inRules).hasSizeGreaterThanOrEqualTo(6).isSubsetOf(exported);

    pushCatalog("catalogs/watched", "v1", "configs", CatalogFixtures.etcdNdjson());
    double before = System.currentTimeMillis() / 1000.0;
    pollNow("watched");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> assertThat(metrics()).contains("olmstead_catalog_poll_error" + series + " 0.0"));
    double lastSuccess =
        metrics()
            .lines()
            .filter(
                l -> l.startsWith("olmstead_catalog_poll_last_success_timestamp_seconds" + series))
            .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
            .findFirst()
            .orElseThrow();
    // the database's clock against this JVM's: the same machine, a second of slack for the rounding
    assertThat(lastSuccess).isGreaterThan(before - 1);
    assertThat(metrics()).contains("olmstead_catalog_poll_failures_total" + series + " 1.0");
  }

  static String metrics() throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** The interval is at least a minute: make the catalog due now instead of waiting. */
  static void pollNow(String name) throws Exception {
    var db = cp.database();
    try (var c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        var s =
            c.prepareStatement(
                "UPDATE catalogs SET last_poll_at = now() - interval '1 day' WHERE name = ?")) {
      s.setString(1, name);
      s.executeUpdate();
    }
  }
}
