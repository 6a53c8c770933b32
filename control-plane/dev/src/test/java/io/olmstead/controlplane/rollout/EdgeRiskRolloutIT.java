package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.sim.SimulatedCluster;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fleet-learned conditional edges on simulated clusters (real agents, mock API servers), matching
 * on the label {@code fips} ({@code OLMSTEAD_EDGE_RISK_LABELS}). sim-01 (fips=true, the canary)
 * holds a Demo with 5 replicas that 0.3.0's CRD rejects, so its agent fails the edge 0.2.0 ->
 * 0.3.0. The next rollout over the same edge holds sim-02 (fips=true) with {@code EdgeAtRisk} while
 * sim-03 (fips=false) moves; accepting the risk lets sim-02 move, and sim-01's new failure after
 * the acceptance makes the risk hold again.
 */
class EdgeRiskRolloutIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String SUB = "demo-operator";
  private static final String NS = "demo-operator";
  private static TestControlPlane cp;
  private static ApiClient api;
  private static DevSimulation simulation;

  @BeforeAll
  static void start() throws Exception {
    cp =
        TestControlPlane.start(
            TestDatabase.create(EdgeRiskRolloutIT.class), Map.of(EdgeRiskSettings.LABELS, "fips"));
    api = new ApiClient(cp);
    assertThat(
            api.json("PUT", "/api/v1/catalogs/" + DemoCatalog.NAME, ADMIN, new JsonObject())
                .status())
        .isEqualTo(201);
    ApiClient.Response uploaded =
        api.send(
            "POST",
            "/api/v1/catalogs/" + DemoCatalog.NAME + "/revisions",
            ADMIN,
            "application/yaml",
            PreflightRolloutIT.tightenedDemoCatalog().getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(uploaded.status()).as(uploaded.body()).isEqualTo(201);
    simulation =
        DevSimulation.start(
            cp.controlPlane().vertx(),
            cp.controlPlane().pool(),
            URI.create(cp.baseUrl()),
            3,
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
  }

  @Test
  void aFailedEdgeHoldsClustersWithMatchingFactsInTheNextRolloutUntilTheRiskIsAccepted()
      throws Exception {
    await().atMost(Duration.ofSeconds(30)).until(() -> connected() == 3);
    label("sim-01", new JsonObject().put("fips", "true").put("canary", "yes"));
    label("sim-02", new JsonObject().put("fips", "true"));
    label("sim-03", new JsonObject().put("fips", "false"));
    assertThat(
            api.json(
                    "PUT",
                    "/api/v1/subscriptions/" + SUB,
                    ADMIN,
                    subscription().put("crdUpgradeSafety", "Warn"))
                .status())
        .isBetween(200, 201);
    await().atMost(Duration.ofSeconds(60)).until(() -> installed("0.2.0") == 3);
    demo(sim("sim-01"), 5);

    // the canary fails the edge: the rollout pauses over its budget, and the edge is remembered
    // with sim-01's facts
    String first =
        create(
            "{\"canary\":{\"selector\":\"canary=yes\"},\"batchSize\":3,\"maxFailures\":0,"
                + "\"progressDeadlineSeconds\":60,\"preflight\":\"Off\"}");
    await().atMost(Duration.ofSeconds(60)).until(() -> "Paused".equals(state(first)));
    JsonArray risks = api.get("/api/v1/edge-risks", ADMIN).items();
    assertThat(risks).hasSize(1);
    JsonObject risk = risks.getJsonObject(0);
    String id = risk.getString("id");
    assertThat(risk.getString("package")).isEqualTo("olmstead-demo-operator");
    assertThat(risk.getString("fromVersion")).isEqualTo("0.2.0");
    assertThat(risk.getString("toVersion")).isEqualTo("0.3.0");
    assertThat(risk.getBoolean("held")).isTrue();
    assertThat(risk.getJsonObject("facts").getJsonObject("labels"))
        .isEqualTo(new JsonObject().put("fips", "true"));
    assertThat(risk.getJsonArray("evidence").getJsonObject(0).getString("cluster"))
        .isEqualTo("sim-01");
    assertThat(risk.getJsonArray("evidence").getJsonObject(0).getString("outcome"))
        .isEqualTo("Failed");
    RolloutFixtures db = new RolloutFixtures(cp.database());
    assertThat(
            db.count(
                "SELECT count(*) FROM audit_log WHERE action = 'edgerisk.record' AND resource = ?",
                "rollouts/" + first))
        .isEqualTo(1);
    assertThat(
            api.json("POST", "/api/v1/rollouts/" + first + "/abort", ADMIN, new JsonObject())
                .status())
        .isEqualTo(200);

    // the next rollout over the same edge: fips=true clusters wait with EdgeAtRisk, sim-03
    // (fips=false) moves
    String second =
        create(
            "{\"batchSize\":3,\"maxFailures\":1,\"progressDeadlineSeconds\":60,\"preflight\":\"Off\"}");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> "Succeeded".equals(clusters(second).get("sim-03").getString("state")));
    Map<String, JsonObject> clusters = clusters(second);
    for (String held : List.of("sim-01", "sim-02")) {
      JsonObject c = clusters.get(held);
      assertThat(c.getString("state")).as(held).isEqualTo("Pending");
      assertThat(c.getJsonObject("reason").getString("code")).as(held).isEqualTo("EdgeAtRisk");
      assertThat(c.getJsonObject("reason").getString("subject")).as(held).isEqualTo(id);
      assertThat(c.getJsonObject("reason").getString("message"))
          .as(held)
          .contains("failed on 1 cluster")
          .contains("fips=true")
          .doesNotContain("sim-01 ");
    }
    assertThat(state(second)).isEqualTo("Progressing");
    assertThat(installed("0.2.0")).as("the held clusters were never approved").isEqualTo(2);
    // the fleet matrix gives the held cells the rollout's reason
    JsonObject matrix = api.get("/api/v1/fleet/matrix?subscriptions=" + SUB, ADMIN).json();
    for (String held : List.of("sim-01", "sim-02")) {
      JsonObject reason =
          matrix.getJsonArray("items").stream()
              .map(JsonObject.class::cast)
              .filter(i -> held.equals(i.getString("cluster")))
              .findFirst()
              .orElseThrow()
              .getJsonObject("cells")
              .getJsonObject(SUB)
              .getJsonObject("reason");
      assertThat(reason.getString("code")).as(held).isEqualTo("EdgeAtRisk");
      assertThat(reason.getString("message"))
          .as(held)
          .isEqualTo(clusters.get(held).getJsonObject("reason").getString("message"));
    }

    // a person accepts the risk: both move; sim-02 succeeds, sim-01 fails again (after the
    // acceptance)
    ApiClient.Response accepted =
        api.json(
            "POST",
            "/api/v1/edge-risks/" + id + "/accept",
            ADMIN,
            new JsonObject().put("comment", "sim-02 has no big Demo"));
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(90)).until(() -> !"Progressing".equals(state(second)));
    clusters = clusters(second);
    assertThat(clusters.get("sim-02").getString("state")).isEqualTo("Succeeded");
    assertThat(clusters.get("sim-01").getString("state")).isEqualTo("Failed");
    String history =
        "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND cluster = 'sim-02' AND kind = ?";
    assertThat(db.count(history, second, "ClusterHeld")).isEqualTo(1);
    assertThat(db.count(history, second, "ClusterReleased")).isEqualTo(1);
    JsonObject after = api.get("/api/v1/edge-risks/" + id, ADMIN).json();
    assertThat(after.getInteger("failures")).isEqualTo(1);
    assertThat(after.getInteger("successes")).as("sim-02's success on matching facts").isEqualTo(1);
    assertThat(after.getBoolean("held")).as("1 failure still outweighs 1 success").isTrue();
    assertThat(after.getString("lastFailureAt"))
        .isGreaterThan(after.getJsonArray("acceptances").getJsonObject(0).getString("acceptedAt"));
  }

  private static String create(String strategy) {
    ApiClient.Response created =
        api.json(
            "POST",
            "/api/v1/rollouts",
            ADMIN,
            "{\"subscription\":\""
                + SUB
                + "\",\"targetVersion\":\"0.3.0\",\"strategy\":"
                + strategy
                + "}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().getString("id");
  }

  private static void label(String cluster, JsonObject labels) {
    ApiClient.Response patched =
        api.send(
            "PATCH",
            "/api/v1/clusters/" + cluster,
            ADMIN,
            "application/merge-patch+json",
            new JsonObject().put("labels", labels).encode().getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(patched.status()).as(patched.body()).isEqualTo(200);
  }

  private static JsonObject subscription() {
    return new JsonObject()
        .put("catalog", DemoCatalog.NAME)
        .put("package", "olmstead-demo-operator")
        .put("channel", "stable")
        .put("namespace", NS)
        .put("placement", new JsonObject().put("selector", "env=dev"))
        .put("version", new JsonObject().put("pin", "0.2.0"))
        .put("approval", "Automatic");
  }

  private static String state(String id) {
    return api.get("/api/v1/rollouts/" + id, ADMIN).json().getString("state");
  }

  private static Map<String, JsonObject> clusters(String id) {
    Map<String, JsonObject> out = new HashMap<>();
    api.get("/api/v1/rollouts/" + id + "/clusters", ADMIN)
        .items()
        .forEach(o -> out.put(((JsonObject) o).getString("name"), (JsonObject) o));
    return out;
  }

  private static long installed(String version) {
    return api.get("/api/v1/subscriptions/" + SUB + "/status", ADMIN).items().stream()
        .map(JsonObject.class::cast)
        .filter(
            i ->
                "Succeeded".equals(i.getString("phase"))
                    && version.equals(i.getString("installedVersion")))
        .count();
  }

  private static long connected() {
    return api.get("/api/v1/clusters", ADMIN).items().stream()
        .map(JsonObject.class::cast)
        .filter(c -> "connected".equals(c.getString("status")))
        .count();
  }

  private static KubernetesClient sim(String name) {
    return simulation.simulation().clusters().stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .map(SimulatedCluster::client)
        .orElseThrow();
  }

  private static void demo(KubernetesClient client, int replicas) {
    GenericKubernetesResource demo = new GenericKubernetesResource();
    demo.setApiVersion("demo.olmstead.io/v1alpha1");
    demo.setKind("Demo");
    demo.setMetadata(new ObjectMetaBuilder().withName("big").withNamespace(NS).build());
    demo.setAdditionalProperty("spec", Map.of("replicas", replicas));
    client
        .genericKubernetesResources("demo.olmstead.io/v1alpha1", "Demo")
        .inNamespace(NS)
        .resource(demo)
        .create();
  }
}
