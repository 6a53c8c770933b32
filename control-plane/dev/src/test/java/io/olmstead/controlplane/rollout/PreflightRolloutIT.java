package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.sim.SimulatedCluster;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Preflight on simulated clusters (real agents, mock API servers): the demo catalog with 0.3.0's
 * Demo CRD allowing at most 3 {@code spec.replicas}; sim-02 holds a Demo with 5 replicas, valid
 * under 0.2.0 and invalid under 0.3.0. The preview shows sim-02's failing verdict, a Block rollout
 * holds sim-02 at 0.2.0 while the others move, a Warn rollout approves it (and the agent's own CRD
 * safety then fails it).
 */
class PreflightRolloutIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String SUB = "demo-operator";
  private static final String NS = "demo-operator";
  private static TestControlPlane cp;
  private static ApiClient api;
  private static DevSimulation simulation;

  @BeforeAll
  static void start() throws Exception {
    cp = TestControlPlane.start(TestDatabase.create(PreflightRolloutIT.class), Map.of());
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
            tightenedDemoCatalog().getBytes(StandardCharsets.UTF_8),
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

  /** The demo catalog with {@code spec.replicas} (integer, at most 3) in 0.3.0's Demo CRD. */
  static String tightenedDemoCatalog() throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<String> lines =
        new ArrayList<>(
            List.of(new String(DemoCatalog.content(), StandardCharsets.UTF_8).split("\n", -1)));
    boolean inTarget = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("name: ")) {
        inTarget = line.equals("name: olmstead-demo-operator.v0.3.0");
      }
      int at = line.indexOf("data: ");
      if (inTarget && at >= 0) {
        ObjectNode manifest =
            (ObjectNode) json.readTree(Base64.getDecoder().decode(line.substring(at + 6).trim()));
        if ("CustomResourceDefinition".equals(manifest.path("kind").asText())) {
          ObjectNode spec =
              (ObjectNode)
                  manifest
                      .path("spec")
                      .path("versions")
                      .get(0)
                      .path("schema")
                      .path("openAPIV3Schema")
                      .path("properties")
                      .path("spec");
          spec.putObject("properties")
              .putObject("replicas")
              .put("type", "integer")
              .put("maximum", 3);
          lines.set(
              i,
              line.substring(0, at + 6)
                  + Base64.getEncoder().encodeToString(json.writeValueAsBytes(manifest)));
          return String.join("\n", lines);
        }
      }
    }
    throw new IllegalStateException("0.3.0's CRD not found in the demo catalog");
  }

  @Test
  void blockHoldsTheClusterWhoseCustomResourceTheTargetRejectsAndWarnApprovesIt() throws Exception {
    await().atMost(Duration.ofSeconds(30)).until(() -> connected() == 3);
    ApiClient.Response bad =
        api.json(
            "PUT",
            "/api/v1/subscriptions/" + SUB,
            ADMIN,
            subscription("0.2.0").put("crdUpgradeSafety", "Sometimes"));
    assertThat(bad.status()).as(bad.body()).isEqualTo(422);
    assertThat(bad.body()).contains("crdUpgradeSafety");
    assertThat(
            api.json(
                    "PUT",
                    "/api/v1/subscriptions/" + SUB,
                    ADMIN,
                    subscription("0.2.0").put("crdUpgradeSafety", "Warn"))
                .status())
        .isBetween(200, 201);
    assertThat(api.get("/api/v1/subscriptions/" + SUB, ADMIN).json().getString("crdUpgradeSafety"))
        .isEqualTo("Warn");
    await().atMost(Duration.ofSeconds(60)).until(() -> installed("0.2.0").size() == 3);
    demo(sim("sim-02"), 5);

    // the preview asks every cluster and shows the verdicts as they come
    String body =
        "{\"subscription\":\""
            + SUB
            + "\",\"targetVersion\":\"0.3.0\",\"strategy\":{\"batchSize\":3,"
            + "\"maxFailures\":1,\"progressDeadlineSeconds\":60}}";
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              Map<String, JsonObject> verdicts = previewVerdicts(body);
              assertThat(verdicts).hasSize(3);
              assertThat(verdicts.values())
                  .noneMatch(v -> "Pending".equals(v.getString("verdict")));
            });
    Map<String, JsonObject> verdicts = previewVerdicts(body);
    assertThat(verdicts.get("sim-01").getString("verdict")).isEqualTo("Pass");
    assertThat(verdicts.get("sim-03").getString("verdict")).isEqualTo("Pass");
    assertThat(verdicts.get("sim-02").getString("verdict")).isEqualTo("Fail");
    assertThat(verdicts.get("sim-02").getJsonArray("findings").getJsonObject(0).getString("code"))
        .isEqualTo("ExistingResourceInvalid");

    // Block (the default): sim-02 is held where it runs, the others move
    ApiClient.Response created = api.json("POST", "/api/v1/rollouts", ADMIN, body);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String id = created.json().getString("id");
    // every wave done with sim-02 held: the end says so and names it
    await().atMost(Duration.ofSeconds(60)).until(() -> "SucceededWithExceptions".equals(state(id)));
    assertThat(api.get("/api/v1/rollouts/" + id, ADMIN).json().getString("message"))
        .startsWith(
            "1 of 3 clusters not at 0.3.0: sim-02 (Blocked: PreflightFailed: ExistingResourceInvalid");
    Map<String, JsonObject> clusters = rolloutClusters(id);
    assertThat(clusters.get("sim-02").getString("state")).isEqualTo("Blocked");
    assertThat(clusters.get("sim-02").getString("message"))
        .startsWith("PreflightBlocked (ExistingResourceInvalid");
    assertThat(clusters.get("sim-02").getJsonObject("reason").getString("code"))
        .isEqualTo("PreflightBlocked");
    assertThat(clusters.get("sim-02").getJsonObject("reason").getString("subject"))
        .isEqualTo("PreflightFailed");
    assertThat(clusters.get("sim-01").getString("state")).isEqualTo("Succeeded");
    await().atMost(Duration.ofSeconds(30)).until(() -> installed("0.3.0").size() == 2);
    Thread.sleep(2000); // the pin moved to 0.3.0; the held cluster keeps its approval at 0.2.0
    assertThat(installed("0.2.0")).containsExactly("sim-02");
    // the rollout ended holding sim-02: the fleet matrix keeps the rollout's reason for it
    JsonObject cell =
        api
            .get("/api/v1/fleet/matrix?subscriptions=" + SUB, ADMIN)
            .json()
            .getJsonArray("items")
            .stream()
            .map(JsonObject.class::cast)
            .filter(i -> "sim-02".equals(i.getString("cluster")))
            .findFirst()
            .orElseThrow()
            .getJsonObject("cells")
            .getJsonObject(SUB);
    assertThat(cell.getJsonObject("reason").getString("code")).isEqualTo("PreflightBlocked");
    assertThat(cell.getJsonObject("reason").getString("message"))
        .startsWith("PreflightBlocked (ExistingResourceInvalid");

    // Warn: sim-02 is approved despite its failing preflight; the agent's own CRD safety then
    // refuses the upgrade
    String warn = body.replace("\"batchSize\":3", "\"batchSize\":3,\"preflight\":\"Warn\"");
    ApiClient.Response second = api.json("POST", "/api/v1/rollouts", ADMIN, warn);
    assertThat(second.status()).as(second.body()).isEqualTo(201);
    String id2 = second.json().getString("id");
    await().atMost(Duration.ofSeconds(60)).until(() -> !"Progressing".equals(state(id2)));
    RolloutFixtures db = new RolloutFixtures(cp.database());
    String sim02 =
        "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND cluster = 'sim-02' AND kind = ?";
    assertThat(db.count(sim02, id2, "ClusterApproved")).isEqualTo(1);
    assertThat(db.count(sim02, id2, "ClusterHeld")).isZero();
    assertThat(db.count(sim02, id, "ClusterHeld")).isEqualTo(1);
    assertThat(rolloutClusters(id2).get("sim-02").getString("state")).isEqualTo("Failed");
    JsonObject status02 =
        api.get("/api/v1/subscriptions/" + SUB + "/status", ADMIN).items().stream()
            .map(JsonObject.class::cast)
            .filter(i -> "sim-02".equals(i.getString("cluster")))
            .findFirst()
            .orElseThrow();
    assertThat(status02.getString("installedVersion")).isEqualTo("0.2.0");
    assertThat(status02.getString("message")).contains("error validating existing CRs");
  }

  private static JsonObject subscription(String pin) {
    return new JsonObject()
        .put("catalog", DemoCatalog.NAME)
        .put("package", "olmstead-demo-operator")
        .put("channel", "stable")
        .put("namespace", NS)
        .put("placement", new JsonObject().put("selector", "env=dev"))
        .put("version", new JsonObject().put("pin", pin))
        .put("approval", "Automatic");
  }

  private static Map<String, JsonObject> previewVerdicts(String body) {
    ApiClient.Response preview = api.json("POST", "/api/v1/rollouts/preview", ADMIN, body);
    assertThat(preview.status()).as(preview.body()).isEqualTo(200);
    Map<String, JsonObject> out = new HashMap<>();
    for (Object w : preview.json().getJsonArray("waves")) {
      for (Object c : ((JsonObject) w).getJsonArray("clusters")) {
        JsonObject cluster = (JsonObject) c;
        out.put(cluster.getString("name"), cluster.getJsonObject("preflight"));
      }
    }
    return out;
  }

  private static String state(String id) {
    return api.get("/api/v1/rollouts/" + id, ADMIN).json().getString("state");
  }

  private static Map<String, JsonObject> rolloutClusters(String id) {
    Map<String, JsonObject> out = new HashMap<>();
    api.get("/api/v1/rollouts/" + id + "/clusters", ADMIN)
        .items()
        .forEach(o -> out.put(((JsonObject) o).getString("name"), (JsonObject) o));
    return out;
  }

  private static List<String> installed(String version) {
    List<String> out = new ArrayList<>();
    for (Object o : api.get("/api/v1/subscriptions/" + SUB + "/status", ADMIN).items()) {
      JsonObject item = (JsonObject) o;
      if ("Succeeded".equals(item.getString("phase"))
          && version.equals(item.getString("installedVersion"))) {
        out.add(item.getString("cluster"));
      }
    }
    out.sort(String::compareTo);
    return out;
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

  /**
   * A Demo custom resource (the mock API server does not validate it; 0.2.0's schema would accept
   * it anyway).
   */
  private static void demo(KubernetesClient client, int replicas) {
    GenericKubernetesResource demo = new GenericKubernetesResource();
    demo.setApiVersion("demo.olmstead.io/v1alpha1");
    demo.setKind("Demo");
    demo.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("big")
            .withNamespace(NS)
            .build());
    demo.setAdditionalProperty("spec", Map.of("replicas", replicas));
    client
        .genericKubernetesResources("demo.olmstead.io/v1alpha1", "Demo")
        .inNamespace(NS)
        .resource(demo)
        .create();
  }
}
