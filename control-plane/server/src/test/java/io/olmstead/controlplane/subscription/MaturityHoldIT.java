package io.olmstead.controlplane.subscription;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.rollout.RolloutMaturityIT;
import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fleet policy on catalog revisions, on hollow clusters (real PostgreSQL). Catalog revision 1: the
 * bundled etcd without 0.9.4 (head 0.9.2); revision 2: 0.9.4 with its first CRD on
 * apiextensions.k8s.io/v1beta1 (removed in Kubernetes 1.22); revision 3: the bundled etcd as is
 * (0.9.4 clean). Subscription {@code held} follows the channel and forbids {@code
 * portability/removed-api} (clusters held-*); {@code kube} follows it without requirements
 * (kube-0001 reports Kubernetes v1.29.3, kube-0002 v1.21.14).
 */
class MaturityHoldIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String SUBSCRIPTION =
      "INSERT INTO subscriptions (name, catalog, package, channel, namespace, "
          + "placement_selector, version_kind, version_value, approval, created_by, requirements) VALUES (?, 'hc', 'etcd', "
          + "'singlenamespace-alpha', 'etcd', ?, 'follow', 'channel', 'Automatic', 'test', ?::jsonb)";
  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures fx;
  private static final List<HollowFleet> FLEETS = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    SharedFolder.require(RolloutMaturityIT.ETCD);
    cp = TestControlPlane.start(TestDatabase.create(MaturityHoldIT.class), Map.of());
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    assertThat(api.json("PUT", "/api/v1/catalogs/hc", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    upload(etcd(true));
    fx.update(
        SUBSCRIPTION,
        "held",
        "fleet=held",
        "{\"maturity\":{\"forbid\":[\"portability/removed-api\"]}}");
    fx.update(SUBSCRIPTION, "kube", "fleet=kube", null);
    for (String fleet : List.of("held", "kube")) {
      FLEETS.add(
          HollowFleet.start(
              cp.controlPlane().vertx(),
              new HollowFleet.Settings(
                  2,
                  URI.create(cp.baseUrl()),
                  fx.enrollmentToken(2, "{\"fleet\":\"" + fleet + "\"}"),
                  fleet + "-",
                  Duration.ofMillis(200),
                  0.0,
                  Map.of(),
                  null,
                  0)));
    }
  }

  @AfterAll
  static void stop() {
    FLEETS.forEach(HollowFleet::close);
    if (cp != null) {
      cp.close();
    }
  }

  private static void upload(String ndjson) {
    ApiClient.Response up =
        api.send(
            "POST",
            "/api/v1/catalogs/hc/revisions",
            ADMIN,
            "application/x-ndjson",
            ndjson.getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(up.status()).as(up.body()).isEqualTo(201);
  }

  /**
   * The bundled etcd catalog as NDJSON; {@code without094}: 0.9.4 and its channel entry left out.
   */
  static String etcd(boolean without094) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Path file = SharedFolder.require(RolloutMaturityIT.ETCD);
    List<String> lines = new ArrayList<>();
    try (MappingIterator<JsonNode> docs =
        json.readerFor(JsonNode.class)
            .with(JsonParser.Feature.AUTO_CLOSE_SOURCE)
            .readValues(Files.readString(file))) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (without094 && "etcdoperator.v0.9.4".equals(doc.path("name").asText())) {
          continue;
        }
        if (without094 && "olm.channel".equals(doc.path("schema").asText())) {
          for (Iterator<JsonNode> it = ((ArrayNode) doc.path("entries")).elements();
              it.hasNext(); ) {
            if ("etcdoperator.v0.9.4".equals(it.next().path("name").asText())) {
              it.remove();
            }
          }
        }
        lines.add(json.writeValueAsString((ObjectNode) doc));
      }
    }
    return String.join("\n", lines) + "\n";
  }

  private static long at(String subscription, String version) {
    return fx.count(
        "SELECT count(*) FROM subscription_status WHERE subscription = ? AND installed_version = ? "
            + "AND target_version = ? AND phase = 'Succeeded'",
        subscription,
        version,
        version);
  }

  private static boolean runs(String cluster, String version) {
    return fx.count(
            "SELECT count(*) FROM subscription_status WHERE cluster = ? AND installed_version = ?",
            cluster,
            version)
        == 1;
  }

  private static JsonObject status(String subscription) {
    ApiClient.Response r = api.get("/api/v1/subscriptions/" + subscription + "/status", ADMIN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private static long generations() {
    return fx.count("SELECT coalesce(sum(desired_generation), 0) FROM agent_channel_state");
  }

  @Test
  void aNonCompliantHeadHoldsTheChannelAndOldKubernetesClustersUntilACompliantRevisionArrives()
      throws Exception {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> at("held", "0.9.2") == 2 && at("kube", "0.9.2") == 2);
    fx.update(
        "UPDATE clusters SET kubernetes_version = CASE name WHEN 'kube-0001' THEN 'v1.29.3' "
            + "ELSE 'v1.21.14' END");
    assertThat(status("held").getString("blockedReason")).isNull();

    // revision 2: 0.9.4 uses apiextensions.k8s.io/v1beta1
    long before = generations();
    upload(RolloutMaturityIT.etcdWithRemovedApi());
    await().atMost(Duration.ofSeconds(30)).until(() -> runs("kube-0002", "0.9.4"));
    // every cluster got the new revision's desired state; the held ones stay where they were
    await().atMost(Duration.ofSeconds(10)).until(() -> generations() >= before + 4);
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> at("held", "0.9.2") == 2 && runs("kube-0001", "0.9.2"));
    JsonObject held = status("held");
    assertThat(held.getString("blockedReason"))
        .contains("etcdoperator.v0.9.4 breaks portability/removed-api")
        .contains("held at etcdoperator.v0.9.2");
    assertThat(held.getString("heldAt")).isEqualTo("etcdoperator.v0.9.2");
    JsonObject kube = status("kube");
    assertThat(kube.getString("blockedReason")).isNull();
    JsonObject removed = kube.getJsonObject("removedApiClusters");
    assertThat(removed.getLong("count")).isEqualTo(1L);
    assertThat(removed.getJsonArray("items")).hasSize(1);
    JsonObject listed = removed.getJsonArray("items").getJsonObject(0);
    assertThat(listed.getString("cluster")).isEqualTo("kube-0001");
    assertThat(listed.getString("kubernetesVersion")).isEqualTo("v1.29.3");
    assertThat(listed.getJsonArray("apis").encode()).contains("apiextensions.k8s.io/v1beta1");

    // revision 3: 0.9.4 as published, compliant: the holds lift by themselves
    upload(etcd(false));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> at("held", "0.9.4") == 2 && at("kube", "0.9.4") == 2);
    assertThat(status("held").getString("blockedReason")).isNull();
    assertThat(status("kube").getJsonObject("removedApiClusters").getLong("count")).isZero();
  }
}
