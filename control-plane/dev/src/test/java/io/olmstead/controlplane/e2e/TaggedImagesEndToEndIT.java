package io.olmstead.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.sim.SimulatedCluster;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.registry.BundleImages;
import io.olmstead.controlplane.registry.ImagePusher;
import io.olmstead.controlplane.registry.TestRegistry;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real catalogs name bundles by tag: a catalog of {@code rabbitmq-messaging-topology-operator} and
 * its dependency {@code rabbitmq-cluster-operator} whose bundles carry only {@code image:
 * REGISTRY/REPO:TAG}. The control plane resolves each tag once for the revision and pins it (a
 * moved tag changes nothing until a new revision), unpacks the pinned digests once, and simulated
 * clusters (which never see the registry) install the operator and its dependency.
 */
class TaggedImagesEndToEndIT {
  static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  static final String TOPOLOGY = "rabbitmq-messaging-topology-operator";
  static final String CLUSTER_OPERATOR = "rabbitmq-cluster-operator";
  static final int CLUSTERS = 2;
  static TestRegistry registry;
  static TestControlPlane cp;
  static ApiClient api;
  static DevSimulation simulation;
  static DeclarativeConfig bundled;
  static String catalog;

  @BeforeAll
  static void start() throws Exception {
    bundled = BundleImages.bundledCatalog();
    registry = TestRegistry.start();
    cp =
        TestControlPlane.start(
            TestDatabase.create(TaggedImagesEndToEndIT.class),
            Map.of(
                RegistrySettings.INSECURE, registry.host(), RegistrySettings.SWEEP_SECONDS, "1"));
    api = new ApiClient(cp);
    Map<String, String> tags = new HashMap<>();
    for (Bundle b : bundled.bundles()) {
      if (b.packageName().equals(TOPOLOGY) || b.packageName().equals(CLUSTER_OPERATOR)) {
        BundleImages.push(registry, b);
        tags.put(b.name(), registry.host() + "/bundles/" + b.packageName() + ":" + b.name());
      }
    }
    catalog = byTag(tags);
    assertThat(api.json("PUT", "/api/v1/catalogs/tagged", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    Response upload = upload(catalog);
    assertThat(upload.status()).as(upload.body()).isEqualTo(201);
    simulation =
        DevSimulation.start(
            cp.controlPlane().vertx(),
            cp.controlPlane().pool(),
            URI.create(cp.baseUrl()),
            CLUSTERS,
            List.of(),
            Duration.ofMillis(300));
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

  static Response upload(String content) {
    return api.send(
        "POST",
        "/api/v1/catalogs/tagged/revisions",
        ADMIN,
        "application/x-ndjson",
        content.getBytes(StandardCharsets.UTF_8),
        Map.of());
  }

  /**
   * The two rabbitmq packages of bundled/ as NDJSON, each bundle's objects removed and its image a
   * tag.
   */
  static String byTag(Map<String, String> tags) throws Exception {
    String out = ImageInstallEndToEndIT.imagesOnly(tags, List.of(CLUSTER_OPERATOR, TOPOLOGY));
    assertThat(out).doesNotContain("@sha256:");
    return out;
  }

  @Test
  void theTopologyOperatorAndItsDependencyInstallFromTaggedImagesPinnedOncePerRevision()
      throws Exception {
    // every tag of revision 1 is resolved and recorded on the revision's rows
    Map<String, String> pins =
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> pins(1), p -> p.size() == 12 && !p.containsValue(null));
    assertThat(pins.values()).allMatch(d -> d.matches("sha256:[0-9a-f]{64}"));

    JsonObject spec =
        new JsonObject()
            .put("catalog", "tagged")
            .put("package", TOPOLOGY)
            .put("channel", "stable")
            .put("namespace", "rabbitmq")
            .put("placement", new JsonObject().put("selector", "env=dev"))
            .put("version", new JsonObject().put("pin", "1.19.3"))
            .put("approval", "Automatic");
    Response put = api.json("PUT", "/api/v1/subscriptions/topology", ADMIN, spec);
    assertThat(put.status()).as(put.body()).isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                api.get("/api/v1/subscriptions/topology/status", ADMIN)
                    .json()
                    .getJsonArray("items"),
            items ->
                items.size() == CLUSTERS
                    && items.stream()
                        .map(JsonObject.class::cast)
                        .allMatch(
                            i ->
                                "Succeeded".equals(i.getString("phase"))
                                    && "1.19.3".equals(i.getString("installedVersion"))));
    for (SimulatedCluster c : simulation.simulation().clusters()) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> deployments(c.client()),
              d ->
                  d.contains(CLUSTER_OPERATOR) && d.stream().anyMatch(n -> n.contains("topology")));
    }
    // the registry served every blob once and every tag was resolved once (clusters got objects by
    // digest)
    List<String> log = Files.readAllLines(registry.log());
    List<String> blobGets =
        log.stream()
            .filter(l -> l.contains("\"GET /v2/bundles/") && l.contains("/blobs/sha256:"))
            .map(l -> l.replaceAll(".*blobs/", "").replaceAll(" .*", ""))
            .toList();
    assertThat(blobGets).isNotEmpty().doesNotHaveDuplicates();
    String tag = TOPOLOGY + ".v1.19.3";
    assertThat(tagRequests(log, tag)).isEqualTo(1);

    // the tag moves: revision 1 keeps what it was pinned to; a new revision resolves the tag anew
    Bundle v1193 =
        bundled.bundles().stream().filter(b -> b.name().equals(tag)).findFirst().orElseThrow();
    String moved =
        registry
            .pusher()
            .image(
                "bundles/" + TOPOLOGY,
                tag,
                ImagePusher.OCI_MANIFEST,
                Map.of(
                    "operators.operatorframework.io.bundle.mediatype.v1",
                    "registry+v1",
                    "rebuilt",
                    "yes"),
                List.of(BundleImages.layer(v1193)));
    assertThat(moved).isNotEqualTo(pins.get(tag));
    // two pin sweeps, the second begun after the move: nothing of revision 1 is resolved again
    long swept = pinSweeps();
    await().atMost(Duration.ofSeconds(30)).until(() -> pinSweeps() >= swept + 2);
    assertThat(pins(1).get(tag)).isEqualTo(pins.get(tag));
    assertThat(tagRequests(Files.readAllLines(registry.log()), tag)).isEqualTo(1);
    assertThat(upload(catalog + "\n").status()).isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> pins(2).get(tag), moved::equals);
    assertThat(pins(1).get(tag)).isEqualTo(pins.get(tag));
  }

  static long pinSweeps() {
    return cp.controlPlane().bundles().completedPinSweeps();
  }

  /** Bundle → pinned digest of a revision of the catalog. */
  static Map<String, String> pins(int revision) throws Exception {
    var rows =
        cp.controlPlane()
            .pool()
            .preparedQuery(
                "SELECT bundle, image_digest FROM catalog_bundles "
                    + "WHERE catalog = 'tagged' AND revision = $1")
            .execute(Tuple.of(revision))
            .toCompletionStage()
            .toCompletableFuture()
            .get();
    Map<String, String> out = new HashMap<>();
    for (Row r : rows) {
      out.put(r.getString("bundle"), r.getString("image_digest"));
    }
    return out;
  }

  /** Requests for a tag's manifest (HEAD or GET): what resolving the tag costs the registry. */
  static long tagRequests(List<String> log, String tag) {
    return log.stream()
        .filter(
            l ->
                (l.contains("\"GET /v2/") || l.contains("\"HEAD /v2/"))
                    && l.contains("/manifests/" + tag + " "))
        .count();
  }

  static List<String> deployments(KubernetesClient client) {
    return client.apps().deployments().inAnyNamespace().list().getItems().stream()
        .map(d -> d.getMetadata().getName())
        .sorted()
        .toList();
  }
}
