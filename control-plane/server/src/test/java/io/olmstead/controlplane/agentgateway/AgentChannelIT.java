package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelListener;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.apispec.protocol.Approve;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.DesiredSubscription;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent channel end to end: enrollment, connect, desired state, acks, status, with the real
 * channel client. The periodic resync is far longer than any wait here, so every change reaches
 * agents through LISTEN/NOTIFY or not at all.
 */
class AgentChannelIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;

  /** How long a change may take to reach a connected agent through its notification. */
  private static final Duration NOTIFIED = Duration.ofSeconds(5);

  private static TestControlPlane cp;
  private static ApiClient api;
  private static ChannelFixtures fixtures;
  private static Vertx agentVertx;

  @BeforeAll
  static void start() {
    cp =
        TestControlPlane.start(
            TestDatabase.create(AgentChannelIT.class),
            Map.of(GatewaySettings.RESYNC_SECONDS, "300"));
    api = new ApiClient(cp);
    fixtures = new ChannelFixtures(cp.database());
    fixtures.catalog(ChannelFixtures.DIGEST_1, "{\"schema\":\"olm.package\",\"name\":\"etcd\"}\n");
    fixtures.subscription("etcd", "env=prod", "0.9.2");
    agentVersion();
  }

  private static void agentVersion() {
    agentVertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    agentVertx.close();
    cp.close();
  }

  @Test
  void enrolledAgentGetsDesiredStateAcksItAndItsStatusIsStored(@TempDir Path dir) throws Exception {
    String token = fixtures.enrollmentToken(5, 600, "{\"env\":\"prod\"}", null);
    Path credentialFile = dir.resolve("credential");
    Recorder recorder = new Recorder();
    ChannelClient client =
        client("prod-eu-1", token, CredentialStorage.file(credentialFile), recorder);
    client.start();
    try {
      await().atMost(Duration.ofSeconds(20)).until(() -> recorder.latest() != null);
      assertThat(Files.readString(credentialFile)).startsWith("olm_cluster_");
      Desired desired = recorder.latest();
      assertThat(desired.subscriptions())
          .singleElement()
          .satisfies(
              s -> {
                assertThat(s.name()).isEqualTo("etcd");
                assertThat(s.maxVersion()).isEqualTo("0.9.2");
                assertThat(s.catalogDigest()).isEqualTo(ChannelFixtures.DIGEST_1);
                assertThat(s.startingBundle()).isEqualTo("etcdoperator.v0.9.2");
              });
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> ackedGeneration("prod-eu-1") == desired.generation());
      Map<String, Object> cluster =
          fixtures
              .query(
                  "SELECT status, labels::text AS labels, agent_version "
                      + "FROM clusters WHERE name = 'prod-eu-1'")
              .get(0);
      assertThat(cluster.get("status")).isEqualTo("connected");
      assertThat(new JsonObject((String) cluster.get("labels")).getMap())
          .containsEntry("env", "prod")
          .containsEntry("region", "eu");

      client.report(
          new SubscriptionStatus(
              "etcd",
              "etcdoperator.v0.9.2",
              "0.9.2",
              "0.9.2",
              "Succeeded",
              "InstallSucceeded",
              "ok",
              List.of(),
              1L));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  fixtures.status("prod-eu-1").size() == 1
                      && "Succeeded".equals(fixtures.status("prod-eu-1").get(0).get("phase")));
      await().atMost(Duration.ofSeconds(10)).until(() -> client.lastAckedSeq() > 0);
      JsonObject rest =
          new JsonObject(
              cp.client()
                  .get("/api/v1/subscriptions/etcd/status")
                  .putHeader("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                  .send()
                  .toCompletionStage()
                  .toCompletableFuture()
                  .get()
                  .bodyAsString());
      assertThat(rest.getJsonObject("byPhase").getInteger("Succeeded")).isEqualTo(1);
      assertThat(rest.getJsonArray("items").getJsonObject(0).getString("cluster"))
          .isEqualTo("prod-eu-1");

      // A change to the subscription reaches the agent through LISTEN/NOTIFY, as a higher
      // generation.
      fixtures.pin("etcd", "0.9.4");
      await().atMost(NOTIFIED).until(() -> recorder.latest().generation() > desired.generation());
      assertThat(recorder.latest().subscriptions())
          .extracting(DesiredSubscription::maxVersion)
          .containsExactly("0.9.4");

      // Labels changing so the placement no longer selects the cluster empty its desired state.
      fixtures.labels("prod-eu-1", "{\"env\":\"staging\"}");
      await().atMost(NOTIFIED).until(() -> recorder.latest().subscriptions().isEmpty());
    } finally {
      client.stop().toCompletionStage().toCompletableFuture().get();
      fixtures.pin("etcd", "0.9.2");
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> "disconnected".equals(fixtures.clusterStatus("prod-eu-1")));
  }

  @Test
  void anExpiredRevokedOrUsedUpTokenIsRefused() throws Exception {
    String once = fixtures.enrollmentToken(1, 600, "{}", null);
    assertThat(Enroll.cluster(cp.baseUrl(), once, "once-a").statusCode()).isEqualTo(201);
    assertThat(Enroll.cluster(cp.baseUrl(), once, "once-b").statusCode()).isEqualTo(401);
    String expired = fixtures.enrollmentToken(5, -1, "{}", null);
    assertThat(Enroll.cluster(cp.baseUrl(), expired, "late").statusCode()).isEqualTo(401);
    String revoked = fixtures.enrollmentToken(5, 600, "{}", null);
    fixtures.update(
        "UPDATE enrollment_tokens t SET revoked_at = now() WHERE max_uses = 5 AND NOT EXISTS "
            + "(SELECT 1 FROM enrollment_token_uses u WHERE u.token_id = t.id) "
            + "AND expires_at > now()");
    assertThat(Enroll.cluster(cp.baseUrl(), revoked, "revoked").statusCode()).isEqualTo(401);
    assertThat(Enroll.cluster(cp.baseUrl(), "olm_enroll_nonsense", "nobody").statusCode())
        .isEqualTo(401);
    assertThat(Enroll.cluster(cp.baseUrl(), null, "nobody").statusCode()).isEqualTo(401);
    assertThat(
            fixtures.query(
                "SELECT name FROM clusters WHERE name IN ('once-b', 'late', 'revoked', 'nobody')"))
        .isEmpty();
  }

  @Test
  void reEnrollingAnExistingNameNeedsATokenBoundToIt() throws Exception {
    String token = fixtures.enrollmentToken(5, 600, "{}", null);
    String first = Enroll.credential(cp.baseUrl(), token, "taken");
    assertThat(Enroll.cluster(cp.baseUrl(), token, "taken").statusCode()).isEqualTo(409);
    String boundElsewhere = fixtures.enrollmentToken(5, 600, "{}", "other");
    assertThat(Enroll.cluster(cp.baseUrl(), boundElsewhere, "taken").statusCode()).isEqualTo(403);

    try (RawAgent agent = RawAgent.connect(agentVertx, cp.port(), first)) {
      agent.handshake();
      String bound = fixtures.enrollmentToken(1, 600, "{\"tier\":\"gold\"}", "taken");
      String second = Enroll.credential(cp.baseUrl(), bound, "taken");
      assertThat(second).isNotEqualTo(first);
      // The old credential is replaced: its connection closes within seconds.
      assertThat(agent.awaitClose()).isEqualTo(4007);
    }
    assertThat(
            fixtures
                .query("SELECT count(*) AS n FROM clusters WHERE name = 'taken'")
                .get(0)
                .get("n"))
        .isEqualTo(1L);
  }

  @Test
  void enrollmentRequestsAreValidated() throws Exception {
    String token = fixtures.enrollmentToken(5, 600, "{}", null);
    assertThat(
            Enroll.post(cp.baseUrl(), token, "{\"clusterName\":\"Not_A_Name\",\"facts\":{}}")
                .statusCode())
        .isEqualTo(422);
    assertThat(Enroll.post(cp.baseUrl(), token, "not json").statusCode()).isEqualTo(400);
    assertThat(
            Enroll.post(cp.baseUrl(), token, "{\"clusterName\":\"ok\",\"facts\":{},\"extra\":1}")
                .statusCode())
        .isEqualTo(422);
    assertThat(
            fixtures.query(
                "SELECT u.cluster FROM enrollment_token_uses u JOIN enrollment_tokens t ON t.id = u.token_id "
                    + "WHERE u.cluster IN ('Not_A_Name', 'ok')"))
        .isEmpty();
  }

  @Test
  void agentsFetchCatalogContentByDigestWithTheirCredentialAndGetApprovals() throws Exception {
    String token = fixtures.enrollmentToken(1, 600, "{}", null);
    String credential = Enroll.credential(cp.baseUrl(), token, "fetcher");
    java.net.http.HttpClient http =
        java.net.http.HttpClient.newBuilder()
            .version(java.net.http.HttpClient.Version.HTTP_1_1)
            .build();
    java.net.URI uri =
        java.net.URI.create(cp.baseUrl() + "/api/v1/agent/catalogs/" + ChannelFixtures.DIGEST_1);
    java.net.http.HttpResponse<byte[]> ok =
        http.send(
            java.net.http.HttpRequest.newBuilder(uri)
                .header("Authorization", "Bearer " + credential)
                .header("Accept-Encoding", "gzip")
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofByteArray());
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.headers().firstValue("ETag")).contains("\"" + ChannelFixtures.DIGEST_1 + "\"");
    assertThat(ok.headers().firstValue("Content-Encoding")).contains("gzip");
    try (java.util.zip.GZIPInputStream in =
        new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(ok.body()))) {
      assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
          .contains("olm.package");
    }
    java.net.http.HttpResponse<String> cached =
        http.send(
            java.net.http.HttpRequest.newBuilder(uri)
                .header("Authorization", "Bearer " + credential)
                .header("If-None-Match", "\"" + ChannelFixtures.DIGEST_1 + "\"")
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(cached.statusCode()).isEqualTo(304);
    java.net.http.HttpResponse<String> anonymous =
        http.send(
            java.net.http.HttpRequest.newBuilder(uri)
                .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).as("API tokens are not agent credentials").isEqualTo(401);

    try (RawAgent agent = RawAgent.connect(agentVertx, cp.port(), credential)) {
      agent.handshake();
      fixtures.update(
          "INSERT INTO cluster_approvals (cluster, subscription, bundle, approved_by) VALUES "
              + "('fetcher', 'etcd', 'etcdoperator.v0.9.4', 'test')");
      Approve approve = agent.next(Approve.class);
      assertThat(approve.subscription()).isEqualTo("etcd");
      assertThat(approve.bundle()).isEqualTo("etcdoperator.v0.9.4");
    }
  }

  @Test
  void aSubscriptionPutReachesTheConnectedAgentWithinSecondsNotAtTheNextResync() throws Exception {
    upload("notify-catalog", CatalogFixtures.etcdNdjson());
    String token = fixtures.enrollmentToken(1, 600, "{\"suite\":\"notify\"}", null);
    Recorder recorder = new Recorder();
    ChannelClient client = client("notify-1", token, CredentialStorage.inMemory(), recorder);
    client.start();
    try {
      await().atMost(Duration.ofSeconds(20)).until(() -> recorder.latest() != null);
      assertThat(recorder.latest().subscriptions()).isEmpty();

      ok(
          api.json(
              "PUT",
              "/api/v1/subscriptions/notified",
              ADMIN,
              pinned("notify-catalog", "suite=notify", "0.9.2")),
          201);
      await().atMost(NOTIFIED).until(() -> versions(recorder).equals(List.of("notified@0.9.2")));
      ok(
          api.json(
              "PUT",
              "/api/v1/subscriptions/notified",
              ADMIN,
              pinned("notify-catalog", "suite=notify", "0.9.4")),
          200);
      await().atMost(NOTIFIED).until(() -> versions(recorder).equals(List.of("notified@0.9.4")));
      ok(api.delete("/api/v1/subscriptions/notified", ADMIN), 204);
      await().atMost(NOTIFIED).until(() -> recorder.latest().subscriptions().isEmpty());
    } finally {
      client.stop().toCompletionStage().toCompletableFuture().get();
    }
  }

  @Test
  void aNewCatalogRevisionReachesConnectedAgentsAsANewCatalogDigest() throws Exception {
    String first = upload("moving", CatalogFixtures.etcdNdjson());
    ok(
        api.json(
            "PUT",
            "/api/v1/subscriptions/moving-etcd",
            ADMIN,
            new JsonObject()
                .put("catalog", "moving")
                .put("package", "etcd")
                .put("channel", "stable")
                .put("namespace", "etcd-catalog")
                .put("placement", new JsonObject().put("selector", "suite=catalog"))
                .put("version", new JsonObject().put("follow", "channel"))
                .put("approval", "Automatic")),
        201);
    String token = fixtures.enrollmentToken(1, 600, "{\"suite\":\"catalog\"}", null);
    Recorder recorder = new Recorder();
    ChannelClient client = client("catalog-1", token, CredentialStorage.inMemory(), recorder);
    client.start();
    try {
      await().atMost(Duration.ofSeconds(20)).until(() -> first.equals(digest(recorder)));

      String second =
          upload("moving", CatalogFixtures.etcdNdjson() + CatalogFixtures.redisNdjson());
      assertThat(second).isNotEqualTo(first);
      await().atMost(NOTIFIED).until(() -> second.equals(digest(recorder)));
      assertThat(recorder.latest().subscriptions())
          .singleElement()
          .satisfies(s -> assertThat(s.catalog()).isEqualTo("moving"));
    } finally {
      client.stop().toCompletionStage().toCompletableFuture().get();
    }
  }

  /** Creates the catalog when needed and uploads a revision; returns its digest. */
  private static String upload(String catalog, String ndjson) {
    if (api.get("/api/v1/catalogs/" + catalog, ADMIN).status() == 404) {
      ok(api.json("PUT", "/api/v1/catalogs/" + catalog, ADMIN, new JsonObject()), 201);
    }
    return ok(
            api.send(
                "POST",
                "/api/v1/catalogs/" + catalog + "/revisions",
                ADMIN,
                "application/x-ndjson",
                ndjson.getBytes(StandardCharsets.UTF_8),
                Map.of()),
            201)
        .json()
        .getString("digest");
  }

  /**
   * In a namespace of its own: the class's etcd subscription (env=prod) may overlap any other
   * selector.
   */
  private static JsonObject pinned(String catalog, String selector, String version) {
    return new JsonObject()
        .put("catalog", catalog)
        .put("package", "etcd")
        .put("channel", "stable")
        .put("namespace", "etcd-notify")
        .put("placement", new JsonObject().put("selector", selector))
        .put("version", new JsonObject().put("pin", version))
        .put("approval", "Automatic");
  }

  private static Response ok(Response response, int status) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    return response;
  }

  private static List<String> versions(Recorder recorder) {
    return recorder.latest().subscriptions().stream()
        .map(s -> s.name() + "@" + s.maxVersion())
        .toList();
  }

  private static String digest(Recorder recorder) {
    Desired latest = recorder.latest();
    return latest == null || latest.subscriptions().isEmpty()
        ? null
        : latest.subscriptions().get(0).catalogDigest();
  }

  private static long ackedGeneration(String cluster) {
    List<Map<String, Object>> rows =
        fixtures.query(
            "SELECT acked_generation FROM agent_channel_state " + "WHERE cluster = ?", cluster);
    return rows.isEmpty() ? -1 : (Long) rows.get(0).get("acked_generation");
  }

  private static ChannelClient client(
      String name, String token, CredentialStorage storage, ChannelListener listener) {
    ChannelOptions options =
        ChannelOptions.of(URI.create(cp.baseUrl()), name, token)
            .withLabels(Map.of("region", "eu"))
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));
    return new ChannelClient(
        agentVertx,
        agentVertx.createHttpClient(),
        agentVertx.createWebSocketClient(),
        options,
        storage,
        listener);
  }

  /** Records desired states as the channel delivers them. */
  static final class Recorder implements ChannelListener {
    final List<Desired> desired = new CopyOnWriteArrayList<>();

    @Override
    public void onDesired(Desired d) {
      desired.add(d);
    }

    Desired latest() {
      return desired.isEmpty() ? null : desired.get(desired.size() - 1);
    }
  }
}
