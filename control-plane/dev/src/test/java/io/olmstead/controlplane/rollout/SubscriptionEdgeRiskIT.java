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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fleet-learned conditional edges outside rollouts, on simulated clusters (real agents, mock API
 * servers), matching on the label {@code fips}. Subscription {@code demo-a} (no rollout strategy)
 * runs 0.2.0 on sim-01 (fips=true), which holds a Demo with 5 replicas that 0.3.0's CRD rejects:
 * pinning 0.3.0 makes its agent fail the edge 0.2.0 -> 0.3.0, and the edge is recorded from the
 * agent's report. Pinning another subscription of the same package, {@code demo-b} on sim-02
 * (fips=true) and sim-03 (fips=false), to 0.3.0 holds sim-02 at 0.2.0 with {@code EdgeAtRisk} in
 * the fleet matrix while sim-03 moves; accepting the risk lets sim-02 move, and its success is
 * recorded on the risk.
 */
class SubscriptionEdgeRiskIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String NS = "demo-operator";
  private static TestControlPlane cp;
  private static ApiClient api;
  private static DevSimulation simulation;

  @BeforeAll
  static void start() throws Exception {
    cp =
        TestControlPlane.start(
            TestDatabase.create(SubscriptionEdgeRiskIT.class),
            Map.of(EdgeRiskSettings.LABELS, "fips"));
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
  void anEdgeFailedOutsideRolloutsHoldsSubscriptionsOnMatchingClustersUntilTheRiskIsAccepted()
      throws Exception {
    await().atMost(Duration.ofSeconds(30)).until(() -> connected() == 3);
    label("sim-01", "true");
    label("sim-02", "true");
    label("sim-03", "false");
    put("demo-a", List.of("sim-01"), "0.2.0");
    await().atMost(Duration.ofSeconds(60)).until(() -> running("demo-a", "sim-01", "0.2.0"));
    demo(sim("sim-01"), 5);

    // the pin moves sim-01 at once (no rollout); its agent fails the edge and the report is
    // recorded
    put("demo-a", List.of("sim-01"), "0.3.0");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> api.get("/api/v1/edge-risks", ADMIN).items().size() == 1);
    JsonObject risk = api.get("/api/v1/edge-risks", ADMIN).items().getJsonObject(0);
    String id = risk.getString("id");
    assertThat(risk.getString("package")).isEqualTo("olmstead-demo-operator");
    assertThat(risk.getString("fromVersion")).isEqualTo("0.2.0");
    assertThat(risk.getString("toVersion")).isEqualTo("0.3.0");
    assertThat(risk.getBoolean("held")).isTrue();
    assertThat(risk.getJsonObject("facts").getJsonObject("labels"))
        .isEqualTo(new JsonObject().put("fips", "true"));
    JsonObject evidence = risk.getJsonArray("evidence").getJsonObject(0);
    assertThat(evidence.getString("cluster")).isEqualTo("sim-01");
    assertThat(evidence.getString("outcome")).isEqualTo("Failed");
    assertThat(evidence.getString("source")).isEqualTo("subscriptions/demo-a");
    RolloutFixtures db = new RolloutFixtures(cp.database());
    assertThat(
            db.count(
                "SELECT count(*) FROM audit_log WHERE action = 'edgerisk.record' AND resource = ?",
                "subscriptions/demo-a"))
        .isGreaterThanOrEqualTo(1);

    // another subscription of the package over the same edge: sim-02 (fips=true) stays, sim-03
    // (fips=false) moves
    put("demo-b", List.of("sim-02", "sim-03"), "0.2.0");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> running("demo-b", "sim-02", "0.2.0") && running("demo-b", "sim-03", "0.2.0"));
    put("demo-b", List.of("sim-02", "sim-03"), "0.3.0");
    await().atMost(Duration.ofSeconds(60)).until(() -> running("demo-b", "sim-03", "0.3.0"));
    await().atMost(Duration.ofSeconds(30)).until(() -> reason("demo-b", "sim-02") != null);
    JsonObject held = reason("demo-b", "sim-02");
    assertThat(held.getString("code")).isEqualTo("EdgeAtRisk");
    assertThat(held.getString("subject")).isEqualTo(id);
    assertThat(held.getString("message"))
        .contains("risk " + id)
        .contains("0.2.0 -> 0.3.0")
        .contains("failed on 1 cluster")
        .contains("fips=true")
        .doesNotContain("sim-01");
    assertThat(reason("demo-b", "sim-03")).as("the fips=false cluster moved").isNull();
    assertThat(running("demo-b", "sim-02", "0.2.0"))
        .as("the held cluster was told to stay")
        .isTrue();

    // demo-a goes back to 0.2.0 (sim-01 would fail the edge again once released); a person accepts
    // the risk:
    // sim-02 moves, and its success on matching facts is recorded on the risk
    put("demo-a", List.of("sim-01"), "0.2.0");
    ApiClient.Response accepted =
        api.json(
            "POST",
            "/api/v1/edge-risks/" + id + "/accept",
            ADMIN,
            new JsonObject().put("comment", "sim-02 has no big Demo"));
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(60)).until(() -> running("demo-b", "sim-02", "0.3.0"));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> api.get("/api/v1/edge-risks/" + id, ADMIN).json().getInteger("successes") == 1);
    assertThat(reason("demo-b", "sim-02")).isNull();
    assertThat(db.count("SELECT count(*) FROM subscription_edge_holds")).isZero();
  }

  private static void put(String name, List<String> clusters, String pin) {
    JsonObject spec =
        new JsonObject()
            .put("catalog", DemoCatalog.NAME)
            .put("package", "olmstead-demo-operator")
            .put("channel", "stable")
            .put("namespace", NS)
            .put("placement", new JsonObject().put("clusters", new JsonArray(clusters)))
            .put("version", new JsonObject().put("pin", pin))
            .put("approval", "Automatic")
            .put("crdUpgradeSafety", "Warn");
    ApiClient.Response put = api.json("PUT", "/api/v1/subscriptions/" + name, ADMIN, spec);
    assertThat(put.status()).as(put.body()).isBetween(200, 201);
  }

  private static boolean running(String subscription, String cluster, String version) {
    return api.get("/api/v1/subscriptions/" + subscription + "/status", ADMIN).items().stream()
        .map(JsonObject.class::cast)
        .anyMatch(
            i ->
                cluster.equals(i.getString("cluster"))
                    && "Succeeded".equals(i.getString("phase"))
                    && version.equals(i.getString("installedVersion")));
  }

  private static JsonObject reason(String subscription, String cluster) {
    JsonObject matrix = api.get("/api/v1/fleet/matrix?subscriptions=" + subscription, ADMIN).json();
    return matrix.getJsonArray("items").stream()
        .map(JsonObject.class::cast)
        .filter(i -> cluster.equals(i.getString("cluster")))
        .findFirst()
        .orElseThrow()
        .getJsonObject("cells")
        .getJsonObject(subscription)
        .getJsonObject("reason");
  }

  private static void label(String cluster, String fips) {
    ApiClient.Response patched =
        api.send(
            "PATCH",
            "/api/v1/clusters/" + cluster,
            ADMIN,
            "application/merge-patch+json",
            new JsonObject()
                .put("labels", new JsonObject().put("fips", fips))
                .encode()
                .getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(patched.status()).as(patched.body()).isEqualTo(200);
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
