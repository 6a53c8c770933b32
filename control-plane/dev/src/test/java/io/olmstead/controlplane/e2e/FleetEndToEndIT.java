package io.olmstead.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.sim.SimulatedCluster;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole fleet in one JVM: a control plane on real PostgreSQL with the demo catalog, three
 * simulated clusters (real agents, mock API servers) enrolled and connected like {@code dev
 * --simulate 3}; a subscription made through the REST API installs everywhere, a newer pin upgrades
 * one edge at a time, and an agent restarted mid-upgrade finishes with exactly the objects of a
 * cluster that was never restarted.
 */
class FleetEndToEndIT {
  private static final String SUB = "demo-operator";
  private static final String NS = "demo-operator";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static TestControlPlane cp;
  private static DevSimulation simulation;

  @BeforeAll
  static void start() throws Exception {
    cp = TestControlPlane.start(TestDatabase.create(FleetEndToEndIT.class), Map.of());
    assertThat(
            DemoCatalog.ensureLoaded(cp.controlPlane().vertx(), cp.controlPlane().pool())
                .toCompletionStage()
                .toCompletableFuture()
                .get(1, TimeUnit.MINUTES))
        .isTrue();
    simulation =
        DevSimulation.start(
            cp.controlPlane().vertx(),
            cp.controlPlane().pool(),
            URI.create(cp.baseUrl()),
            3,
            List.of(),
            Duration.ofMillis(800));
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
  void subscribeInstallsEverywhereAndAPinUpgradesStepByStepThroughAnAgentRestart()
      throws Exception {
    await().atMost(Duration.ofSeconds(30)).until(() -> connectedSimulatedClusters().size() == 3);
    JsonObject cluster = get("/api/v1/clusters/sim-02");
    assertThat(cluster.getJsonObject("labels").getMap())
        .containsEntry("env", "dev")
        .containsEntry("region", "eu-west");
    assertThat(cluster.getJsonObject("facts").getString("mode")).isEqualTo("simulated");

    assertThat(putSubscription("0.1.0")).isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> allAt("0.1.0"));
    assertThat(deployments(sim("sim-01"))).containsExactly("olmstead-demo-operator");

    Map<String, Set<String>> seen = new ConcurrentHashMap<>();
    ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
    watcher.scheduleWithFixedDelay(() -> record(seen), 0, 100, TimeUnit.MILLISECONDS);
    try {
      assertThat(putSubscription("0.3.0")).isEqualTo(200);
      // mid-upgrade on sim-02: it is on its way (first or second edge), not yet at 0.3.0
      await()
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> {
                JsonObject item = item("sim-02");
                return item != null && "0.3.0".equals(item.getString("targetVersion"))
                    || item != null && "0.2.0".equals(item.getString("targetVersion"));
              });
      simulation.simulation().restartAgent("sim-02");
      await()
          .atMost(Duration.ofSeconds(40))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> allAt("0.3.0"));
    } finally {
      watcher.shutdownNow();
    }

    for (String name : List.of("sim-01", "sim-03")) {
      assertThat(seen.get(name))
          .as("(installed -> target) seen on " + name)
          .doesNotContain("0.1.0->0.3.0")
          .anyMatch(step -> step.contains("0.2.0"));
    }
    assertThat(deployments(sim("sim-02")))
        .containsExactly("olmstead-demo-db", "olmstead-demo-operator");
    assertThat(objects(sim("sim-02"))).isEqualTo(objects(sim("sim-01")));
  }

  private static void record(Map<String, Set<String>> seen) {
    try {
      for (Object o : get("/api/v1/subscriptions/" + SUB + "/status").getJsonArray("items")) {
        JsonObject item = (JsonObject) o;
        seen.computeIfAbsent(item.getString("cluster"), k -> ConcurrentHashMap.newKeySet())
            .add(item.getString("installedVersion") + "->" + item.getString("targetVersion"));
      }
    } catch (Exception e) {
      // a missed sample only makes the step assertion stricter
    }
  }

  private static boolean allAt(String version) throws Exception {
    JsonObject status = get("/api/v1/subscriptions/" + SUB + "/status");
    JsonArray items = status.getJsonArray("items");
    return status.getInteger("clusters") == 3
        && items.size() == 3
        && items.stream()
            .map(JsonObject.class::cast)
            .allMatch(
                i ->
                    "Succeeded".equals(i.getString("phase"))
                        && version.equals(i.getString("installedVersion")));
  }

  private static JsonObject item(String cluster) throws Exception {
    for (Object o : get("/api/v1/subscriptions/" + SUB + "/status").getJsonArray("items")) {
      if (cluster.equals(((JsonObject) o).getString("cluster"))) {
        return (JsonObject) o;
      }
    }
    return null;
  }

  private static List<String> connectedSimulatedClusters() throws Exception {
    List<String> names = new ArrayList<>();
    for (Object o : get("/api/v1/clusters").getJsonArray("items")) {
      JsonObject c = (JsonObject) o;
      if (c.getString("name").startsWith("sim-") && "connected".equals(c.getString("status"))) {
        names.add(c.getString("name"));
      }
    }
    return names;
  }

  private static int putSubscription(String pin) throws Exception {
    JsonObject spec =
        new JsonObject()
            .put("catalog", DemoCatalog.NAME)
            .put("package", "olmstead-demo-operator")
            .put("channel", "stable")
            .put("namespace", NS)
            .put("placement", new JsonObject().put("selector", "env=dev"))
            .put("version", new JsonObject().put("pin", pin))
            .put("approval", "Automatic");
    HttpResponse<String> response =
        HTTP.send(
            request("/api/v1/subscriptions/" + SUB)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(spec.encode()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
    return response.statusCode();
  }

  private static JsonObject get(String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return new JsonObject(response.body());
  }

  private static HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(cp.baseUrl() + path))
        .timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN);
  }

  private static KubernetesClient sim(String name) {
    return simulation.simulation().clusters().stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .map(SimulatedCluster::client)
        .orElseThrow();
  }

  private static List<String> deployments(KubernetesClient client) {
    return client.apps().deployments().inNamespace(NS).list().getItems().stream()
        .map(d -> d.getMetadata().getName())
        .sorted()
        .toList();
  }

  /**
   * Every object the agent manages in the cluster, as kind/namespace/name (a duplicate would show
   * as an extra).
   */
  private static Set<String> objects(KubernetesClient client) {
    List<HasMetadata> all = new ArrayList<>();
    all.addAll(client.apps().deployments().inNamespace(NS).list().getItems());
    all.addAll(client.serviceAccounts().inNamespace(NS).list().getItems());
    all.addAll(client.rbac().roles().inNamespace(NS).list().getItems());
    all.addAll(client.rbac().roleBindings().inNamespace(NS).list().getItems());
    all.addAll(client.rbac().clusterRoles().list().getItems());
    all.addAll(client.rbac().clusterRoleBindings().list().getItems());
    all.addAll(client.apiextensions().v1().customResourceDefinitions().list().getItems());
    List<String> keys =
        all.stream()
            .map(
                o ->
                    o.getKind()
                        + "/"
                        + o.getMetadata().getNamespace()
                        + "/"
                        + o.getMetadata().getName())
            .toList();
    assertThat(keys).doesNotHaveDuplicates();
    return keys.stream().collect(Collectors.toCollection(TreeSet::new));
  }
}
