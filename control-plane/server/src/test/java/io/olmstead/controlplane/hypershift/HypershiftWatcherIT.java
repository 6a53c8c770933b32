package io.olmstead.controlplane.hypershift;

import static io.olmstead.controlplane.hypershift.HypershiftFixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The watcher against a fabric8 mock API server in CRUD mode holding the real HostedCluster CRD
 * (installed after the control plane started, so its arrival is noticed), and real PostgreSQL;
 * every outcome is read through the REST API.
 */
class HypershiftWatcherIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Duration RESYNC = Duration.ofMillis(400);
  private static final Duration CRD_POLL = Duration.ofMillis(200);
  private static KubernetesMockServer server;
  private static KubernetesClient kube;
  private static TestControlPlane cp;
  private static TestControlPlane follower;
  private static ApiClient api;
  private static Path kubeconfig;

  @BeforeAll
  static void start() throws Exception {
    Path crd = HypershiftFixtures.hostedClusterCrd();
    java.util.logging.Logger.getLogger("io.fabric8.mockwebserver")
        .setLevel(java.util.logging.Level.WARNING);
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init();
    kube = server.createClient();
    kubeconfig = Files.createTempFile("management", ".kubeconfig");
    Files.writeString(
        kubeconfig,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: mock\n  cluster:\n    server: "
            + kube.getMasterUrl()
            + "\ncontexts:\n- name: mock\n  context:\n    cluster: mock\n    user: watcher\n"
            + "current-context: mock\nusers:\n- name: watcher\n  user:\n    token: not-checked\n");
    DatabaseSettings db = TestDatabase.create(HypershiftWatcherIT.class);
    Map<String, String> env =
        Map.of(HypershiftSettings.MANAGEMENT_KUBECONFIG, kubeconfig.toString());
    // resyncs (awaited by count, never slept for) and the CRD's arrival noticed within a fraction
    // of a second, not a minute and 5 s as in production
    UnaryOperator<ControlPlaneConfig> fast =
        config -> config.withHypershift(config.hypershift().withIntervals(RESYNC, CRD_POLL));
    cp = TestControlPlane.start(db, env, fast);
    follower = TestControlPlane.start(db, env, fast);
    api = new ApiClient(cp);
    try (InputStream in = Files.newInputStream(crd)) {
      kube.apiextensions()
          .v1()
          .customResourceDefinitions()
          .resource(kube.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class))
          .create();
    }
    kube.namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName("clusters").endMetadata().build())
        .create();
    // a subscription placed on every hosted cluster, to see that a retired cluster is no longer
    // placed
    assertThat(api.json("PUT", "/api/v1/catalogs/community", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    Response upload =
        api.send(
            "POST",
            "/api/v1/catalogs/community/revisions",
            ADMIN,
            "application/x-ndjson",
            CatalogFixtures.etcdNdjson().getBytes(java.nio.charset.StandardCharsets.UTF_8),
            Map.of());
    assertThat(upload.status()).as(upload.body()).isEqualTo(201);
    Response subscribed =
        api.json(
            "PUT",
            "/api/v1/subscriptions/hosted-etcd",
            ADMIN,
            new JsonObject()
                .put("catalog", "community")
                .put("package", "etcd")
                .put("channel", "stable")
                .put("namespace", "etcd")
                .put("placement", new JsonObject().put("selector", "olmstead.io/source=hypershift"))
                .put("version", new JsonObject().put("follow", "channel"))
                .put("approval", "Automatic"));
    assertThat(subscribed.status()).as(subscribed.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    if (follower != null) {
      follower.close();
    }
    if (cp != null) {
      cp.close();
    }
    if (kube != null) {
      kube.close();
      server.destroy();
    }
  }

  @Test
  void enrollsAnAvailableHostedClusterOnlyOnceItsKubeconfigSecretExists() {
    Map<String, Object> example = HypershiftFixtures.example();
    put(example);
    skipped("example", "no-kubeconfig");
    resyncs(2);
    assertThat(cluster("clusters-example").status()).isEqualTo(404);

    secret("clusters", "example-admin-kubeconfig");
    await().atMost(WAIT).until(() -> cluster("clusters-example").status() == 200);
    JsonObject cluster = cluster("clusters-example").json();
    assertThat(cluster.getString("status")).isEqualTo("pending");
    assertThat(cluster.getJsonObject("labels").getMap())
        .containsEntry("env", "dev")
        .containsEntry("olmstead.io/source", "hypershift")
        .containsEntry("hypershift.olmstead.io/platform", "AWS")
        .containsEntry("hypershift.olmstead.io/version", "4.19.7")
        .containsEntry("hypershift.olmstead.io/namespace", "clusters")
        .containsEntry("hypershift.olmstead.io/name", "example");
    assertThat(cluster.getJsonObject("facts").getJsonObject("hypershift").getMap())
        .containsEntry("clusterID", "2b6a8d0e-6f1c-4b7e-9a0d-3c5e7f9b1d24")
        .containsEntry("releaseImage", "quay.io/openshift-release-dev/ocp-release:4.19.7-multi")
        .containsEntry("desiredVersion", "4.19.7")
        .containsEntry("controlPlaneNamespace", "clusters-example");
    assertThat(audit("hypershift.enroll", "clusters/clusters-example"))
        .anySatisfy(e -> assertThat(e.getString("outcome")).isEqualTo("success"));
    assertThat(cp.controlPlane().hypershift().leader()).isTrue();
    assertThat(follower.controlPlane().hypershift().leader()).isFalse();
  }

  @Test
  void aNewVersionRelabelsTheClusterAndKeepsLabelsAnAdminSet() {
    Map<String, Object> hc = hostedCluster("relabel", UUID.randomUUID().toString());
    put(hc);
    secret("clusters", "relabel-admin-kubeconfig");
    await().atMost(WAIT).until(() -> cluster("clusters-relabel").status() == 200);
    Response patched =
        api.send(
            "PATCH",
            "/api/v1/clusters/clusters-relabel",
            ADMIN,
            "application/merge-patch+json",
            new JsonObject()
                .put("labels", new JsonObject().put("olmstead.io/team", "payments"))
                .toBuffer()
                .getBytes(),
            Map.of());
    assertThat(patched.status()).as(patched.body()).isEqualTo(200);

    history(hc).get(0).put("version", "4.19.9");
    at(hc, "metadata", "labels").remove("env");
    put(hc);
    await()
        .atMost(WAIT)
        .until(() -> "4.19.9".equals(label("clusters-relabel", "hypershift.olmstead.io/version")));
    Map<String, Object> labels =
        cluster("clusters-relabel").json().getJsonObject("labels").getMap();
    assertThat(labels).containsEntry("olmstead.io/team", "payments").doesNotContainKey("env");
    assertThat(audit("hypershift.update", "clusters/clusters-relabel")).isNotEmpty();
  }

  @Test
  void neverTakesOverAClusterEnrolledOtherwiseAndReportsTheConflict() {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status) VALUES ('clusters-taken',"
            + " '{\"env\":\"prod\"}', 'connected')");
    put(hostedCluster("taken", UUID.randomUUID().toString()));
    secret("clusters", "taken-admin-kubeconfig");
    await()
        .atMost(WAIT)
        .until(() -> !audit("hypershift.enroll", "clusters/clusters-taken").isEmpty());
    JsonObject entry = audit("hypershift.enroll", "clusters/clusters-taken").get(0);
    assertThat(entry.getString("outcome")).isEqualTo("denied");
    assertThat(entry.getString("actor")).isEqualTo("hypershift");
    assertThat(entry.getJsonObject("detail").getString("reason")).isEqualTo("enrolled-otherwise");
    // reported once, not again on every resync (every 400 ms here)
    resyncs(2);
    assertThat(audit("hypershift.enroll", "clusters/clusters-taken")).hasSize(1);
    JsonObject cluster = cluster("clusters-taken").json();
    assertThat(cluster.getJsonObject("labels").getMap()).containsOnlyKeys("env");
    assertThat(cluster.getString("status")).isEqualTo("connected");
  }

  @Test
  void deletingTheHostedClusterRetiresTheClusterAndARecreatedOneIsANewCluster() throws Exception {
    String firstId = UUID.randomUUID().toString();
    Map<String, Object> hc = hostedCluster("ephemeral", firstId);
    put(hc);
    secret("clusters", "ephemeral-admin-kubeconfig");
    await().atMost(WAIT).until(() -> cluster("clusters-ephemeral").status() == 200);
    assertThat(placed()).contains("clusters-ephemeral");
    assertThat(preview()).contains("clusters-ephemeral");
    // the credential an agent would hold (issued to the pool or a hosted agent): retiring revokes
    // it, which makes the
    // gateway close that agent's session (as POST /clusters/{name}/credential/revoke does)
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO cluster_credentials (cluster, credential_hash) VALUES"
            + " ('clusters-ephemeral', '\\x0102')");

    kube.genericKubernetesResources(HostedClusterWatcher.HOSTED_CLUSTERS)
        .inNamespace("clusters")
        .withName("ephemeral")
        .delete();
    await()
        .atMost(WAIT)
        .until(() -> "retired".equals(cluster("clusters-ephemeral").json().getString("status")));
    assertThat(audit("hypershift.retire", "clusters/clusters-ephemeral")).isNotEmpty();
    assertThat(revoked("clusters-ephemeral")).isTrue();
    assertThat(placed()).doesNotContain("clusters-ephemeral");
    assertThat(preview()).doesNotContain("clusters-ephemeral");

    String secondId = UUID.randomUUID().toString();
    put(hostedCluster("ephemeral", secondId));
    await()
        .atMost(WAIT)
        .until(() -> "pending".equals(cluster("clusters-ephemeral").json().getString("status")));
    assertThat(
            cluster("clusters-ephemeral")
                .json()
                .getJsonObject("facts")
                .getJsonObject("hypershift")
                .getString("clusterID"))
        .isEqualTo(secondId);
  }

  @Test
  void anOptedOutHostedClusterIsNotEnrolledOptingOutLaterRetiresAndOptingInRevives() {
    Map<String, Object> hc = hostedCluster("private", UUID.randomUUID().toString());
    at(hc, "metadata", "annotations").put("olmstead.io/enroll", "false");
    put(hc);
    secret("clusters", "private-admin-kubeconfig");
    skipped("private", "opted-out");
    resyncs(2);
    assertThat(cluster("clusters-private").status()).isEqualTo(404);

    at(hc, "metadata", "annotations").remove("olmstead.io/enroll");
    put(hc);
    await().atMost(WAIT).until(() -> cluster("clusters-private").status() == 200);
    at(hc, "metadata", "annotations").put("olmstead.io/enroll", "false");
    put(hc);
    await()
        .atMost(WAIT)
        .until(() -> "retired".equals(cluster("clusters-private").json().getString("status")));

    at(hc, "metadata", "annotations").remove("olmstead.io/enroll");
    put(hc);
    await()
        .atMost(WAIT)
        .until(() -> "pending".equals(cluster("clusters-private").json().getString("status")));
    assertThat(audit("hypershift.enroll", "clusters/clusters-private"))
        .anySatisfy(
            e -> assertThat(e.getJsonObject("detail").getString("mode")).isEqualTo("revive"));
  }

  @Test
  void aPausedHostedClusterIsLabelledPausedAndHeldOutOfRollouts() {
    Map<String, Object> hc = hostedCluster("paused", UUID.randomUUID().toString());
    at(hc, "spec").put("pausedUntil", "true");
    put(hc);
    secret("clusters", "paused-admin-kubeconfig");
    await()
        .atMost(WAIT)
        .until(() -> "true".equals(label("clusters-paused", "hypershift.olmstead.io/paused")));
    JsonObject plan = new JsonObject(preview());
    assertThat(
            plan.getJsonArray("excluded").stream()
                .map(JsonObject.class::cast)
                .filter(e -> "clusters-paused".equals(e.getString("name")))
                .toList())
        .singleElement()
        .satisfies(e -> assertThat(e.getString("reason")).startsWith("paused"));
    assertThat(plan.getJsonArray("waves").encode()).doesNotContain("clusters-paused");

    at(hc, "spec").remove("pausedUntil");
    put(hc);
    await()
        .atMost(WAIT)
        .until(() -> label("clusters-paused", "hypershift.olmstead.io/paused") == null);
    assertThat(new JsonObject(preview()).getJsonArray("waves").encode())
        .contains("clusters-paused");
  }

  @Test
  void aDesiredVersionPastAnInstalledOperatorsMaximumRaisesTheMetricAndAnAuditedEvent()
      throws Exception {
    String legacy =
        "{\"schema\":\"olm.package\",\"name\":\"legacy\",\"defaultChannel\":\"stable\"}\n"
            + "{\"schema\":\"olm.channel\",\"package\":\"legacy\",\"name\":\"stable\",\"entries\":[{\"name\":"
            + "\"legacy.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"legacy\",\"name\":\"legacy.v1.0.0\","
            + "\"image\":\"quay.io/example/legacy:1.0.0\",\"properties\":[{\"type\":\"olm.package\",\"value\":"
            + "{\"packageName\":\"legacy\",\"version\":\"1.0.0\"}},{\"type\":\"olm.maxOpenShiftVersion\","
            + "\"value\":\"4.18\"}]}\n";
    assertThat(api.json("PUT", "/api/v1/catalogs/legacy-ops", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    assertThat(
            api.send(
                    "POST",
                    "/api/v1/catalogs/legacy-ops/revisions",
                    ADMIN,
                    "application/x-ndjson",
                    legacy.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    Map.of())
                .status())
        .isEqualTo(201);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscriptions (name, catalog, package, namespace, version_kind,"
            + " version_value, approval, created_by) VALUES ('legacy', 'legacy-ops', 'legacy', 'legacy', 'follow',"
            + " 'stable', 'Automatic', 'test')");
    Map<String, Object> hc = hostedCluster("upgrading", UUID.randomUUID().toString());
    history(hc).get(0).put("version", "4.18.5");
    at(hc, "status", "version", "desired").put("version", "4.18.5");
    put(hc);
    secret("clusters", "upgrading-admin-kubeconfig");
    await().atMost(WAIT).until(() -> cluster("clusters-upgrading").status() == 200);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_bundle,"
            + " installed_version, phase, seq) VALUES ('legacy', 'clusters-upgrading', 'legacy.v1.0.0', '1.0.0',"
            + " 'Succeeded', 1)");
    resyncs(2); // at 4.18 nothing is passed
    assertThat(audit("hypershift.upgrade-past-max", "clusters/clusters-upgrading")).isEmpty();

    at(hc, "status", "version", "desired").put("version", "4.19.2");
    put(hc);
    await()
        .atMost(WAIT)
        .until(
            () -> !audit("hypershift.upgrade-past-max", "clusters/clusters-upgrading").isEmpty());
    JsonObject event = audit("hypershift.upgrade-past-max", "clusters/clusters-upgrading").get(0);
    assertThat(event.getString("actor")).isEqualTo("hypershift");
    assertThat(event.getJsonObject("detail").getString("desiredVersion")).isEqualTo("4.19.2");
    assertThat(event.getJsonObject("detail").encode()).contains("legacy.v1.0.0").contains("4.18");
    TestControlPlane leader = cp.controlPlane().hypershift().leader() ? cp : follower;
    assertThat(
            new ApiClient(leader)
                .get("/metrics", ADMIN)
                .body()
                .lines()
                .filter(l -> l.startsWith("olmstead_hypershift_upgrades_past_max "))
                .findFirst()
                .orElseThrow())
        .endsWith(" 1.0");
    resyncs(2); // resyncs do not repeat the event
    assertThat(audit("hypershift.upgrade-past-max", "clusters/clusters-upgrading")).hasSize(1);
    TestDatabase.execute(
        cp.database(), "DELETE FROM subscription_status WHERE cluster = 'clusters-upgrading'");
    TestDatabase.execute(cp.database(), "DELETE FROM subscriptions WHERE name = 'legacy'");
  }

  @Test
  void aHostedClusterWhoseNameCannotBeAClusterNameIsReportedOnceAndSkipped() {
    String name = "n".repeat(60);
    put(hostedCluster(name, UUID.randomUUID().toString()));
    secret("clusters", name + "-admin-kubeconfig");
    await()
        .atMost(WAIT)
        .until(() -> !audit("hypershift.skip", "hostedclusters/clusters/" + name).isEmpty());
    resyncs(2);
    assertThat(audit("hypershift.skip", "hostedclusters/clusters/" + name)).hasSize(1);
    JsonObject entry = audit("hypershift.skip", "hostedclusters/clusters/" + name).get(0);
    assertThat(entry.getString("outcome")).isEqualTo("failure");
    assertThat(entry.getJsonObject("detail").getString("reason")).isEqualTo("invalid-name");
    assertThat(entry.getJsonObject("detail").getString("detail"))
        .contains("olmstead.io/cluster-name");
    Response all = api.get("/api/v1/clusters?limit=200", ADMIN);
    assertThat(all.items().stream().map(c -> ((JsonObject) c).getString("name")))
        .noneMatch(n -> n.contains(name));
  }

  @Test
  void eventsAloneEnrollOnASecretsArrivalAndRetireOnADeletionWithoutWaitingForAResync() {
    // another fleet (its own database) watching the same management cluster, resyncing only hourly
    try (TestControlPlane hourly =
        TestControlPlane.start(
            TestDatabase.create(HypershiftWatcherIT.class),
            Map.of(
                HypershiftSettings.MANAGEMENT_KUBECONFIG,
                kubeconfig.toString(),
                HypershiftSettings.RESYNC_SECONDS,
                "3600"))) {
      ApiClient other = new ApiClient(hourly);
      Map<String, Object> hc = hostedCluster("evented", UUID.randomUUID().toString());
      put(hc);
      // its event was handled: the watcher left it alone for want of its kubeconfig secret
      await()
          .atMost(WAIT)
          .until(
              () -> hourly.controlPlane().hypershift().skipReason("clusters", "evented"),
              Optional.of("no-kubeconfig")::equals);
      assertThat(other.get("/api/v1/clusters/clusters-evented", ADMIN).status()).isEqualTo(404);
      secret("clusters", "evented-admin-kubeconfig");
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> other.get("/api/v1/clusters/clusters-evented", ADMIN).status() == 200);
      kube.genericKubernetesResources(HostedClusterWatcher.HOSTED_CLUSTERS)
          .inNamespace("clusters")
          .withName("evented")
          .delete();
      await()
          .atMost(Duration.ofSeconds(15))
          .until(
              () ->
                  "retired"
                      .equals(
                          other
                              .get("/api/v1/clusters/clusters-evented", ADMIN)
                              .json()
                              .getString("status")));
    }
  }

  /**
   * Waits until the leading replica's watcher has decided the HostedCluster {@code clusters/name}
   * and left it alone for {@code reason}: the 404 that follows is then not merely "not seen yet".
   */
  private static void skipped(String name, String reason) {
    await()
        .atMost(WAIT)
        .until(
            () ->
                Optional.of(reason)
                    .equals(
                        (cp.controlPlane().hypershift().leader() ? cp : follower)
                            .controlPlane()
                            .hypershift()
                            .skipReason("clusters", name)));
  }

  /**
   * Waits for {@code count} more resyncs of whichever replica leads (each decides every
   * HostedCluster again): what a resync would do has then been done, with no guess at how long that
   * takes.
   */
  private static void resyncs(int count) {
    long from = completedResyncs();
    await().atMost(WAIT).until(() -> completedResyncs() >= from + count);
  }

  private static long completedResyncs() {
    return cp.controlPlane().hypershift().completedResyncs()
        + follower.controlPlane().hypershift().completedResyncs();
  }

  private static Map<String, Object> hostedCluster(String name, String clusterId) {
    Map<String, Object> hc = HypershiftFixtures.example();
    Map<String, Object> metadata = at(hc, "metadata");
    metadata.put("name", name);
    metadata.remove("uid");
    metadata.remove("finalizers");
    at(hc, "spec").put("clusterID", clusterId);
    at(hc, "status", "kubeconfig").put("name", name + "-admin-kubeconfig");
    return hc;
  }

  /**
   * Creates or replaces the HostedCluster, with its status (written through the status subresource
   * when needed).
   */
  private static void put(Map<String, Object> object) {
    GenericKubernetesResource resource =
        kube.getKubernetesSerialization().convertValue(object, GenericKubernetesResource.class);
    resource.getMetadata().setResourceVersion(null);
    var client =
        kube.genericKubernetesResources(HostedClusterWatcher.HOSTED_CLUSTERS)
            .inNamespace("clusters");
    GenericKubernetesResource stored =
        client.resource(resource).createOr(existing -> existing.update());
    if (stored.getAdditionalProperties().get("status") == null
        || !stored
            .getAdditionalProperties()
            .get("status")
            .equals(resource.getAdditionalProperties().get("status"))) {
      resource.getMetadata().setResourceVersion(stored.getMetadata().getResourceVersion());
      client.resource(resource).updateStatus();
    }
  }

  private static void secret(String namespace, String name) {
    kube.secrets()
        .inNamespace(namespace)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData(
                    "kubeconfig",
                    java.util.Base64.getEncoder().encodeToString("apiVersion: v1".getBytes()))
                .build())
        .create();
  }

  private static List<String> placed() {
    Response response = api.get("/api/v1/subscriptions/hosted-etcd/placement?limit=200", ADMIN);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.items().stream().map(c -> ((JsonObject) c).getString("name")).toList();
  }

  private static String preview() {
    Response response =
        api.json(
            "POST",
            "/api/v1/rollouts/preview",
            ADMIN,
            new JsonObject().put("subscription", "hosted-etcd").put("targetVersion", "0.9.4"));
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  private static boolean revoked(String cluster) throws Exception {
    var db = cp.database();
    try (var c = java.sql.DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        var rs =
            c.createStatement()
                .executeQuery(
                    "SELECT revoked_at IS NOT NULL FROM cluster_credentials"
                        + " WHERE cluster = '"
                        + cluster
                        + "'")) {
      return rs.next() && rs.getBoolean(1);
    }
  }

  private static Response cluster(String name) {
    return api.get("/api/v1/clusters/" + name, ADMIN);
  }

  private static String label(String cluster, String key) {
    Response response = cluster(cluster);
    return response.status() == 200 ? response.json().getJsonObject("labels").getString(key) : null;
  }

  private static List<JsonObject> audit(String action, String resource) {
    Response response = api.get("/api/v1/audit?limit=200", ADMIN);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.items().stream()
        .map(JsonObject.class::cast)
        .filter(
            e -> action.equals(e.getString("action")) && resource.equals(e.getString("resource")))
        .toList();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> history(Map<String, Object> hc) {
    return (List<Map<String, Object>>) at(hc, "status", "version").get("history");
  }
}
