package io.olmstead.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.sim.SimulatedCluster;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The inventory end to end on two simulated clusters (real agents, mock API servers): the demo
 * operator at 0.2.0 and the dependency it pulls in show up per cluster with their custom resource
 * counts and, for a custom resource that owns a pod, its stack; the fleet view sums them by package
 * and version, filtered by selector and team; the metrics carry the count per package and CRD.
 */
class InventoryEndToEndIT {
  private static final String SUB = "demo-operator";
  private static final String DEMO_CRD = "demos.demo.olmstead.io";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static TestControlPlane cp;
  private static ApiClient api;
  private static DevSimulation simulation;

  @BeforeAll
  static void start() throws Exception {
    cp = TestControlPlane.start(TestDatabase.create(InventoryEndToEndIT.class), Map.of());
    api = new ApiClient(cp);
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
            2,
            List.of(),
            Duration.ofMillis(500));
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
  void theInventoryShowsOperatorsDependenciesCustomResourcesAndStacksPerClusterAndFleetWide()
      throws Exception {
    JsonObject spec =
        new JsonObject()
            .put("catalog", DemoCatalog.NAME)
            .put("package", "olmstead-demo-operator")
            .put("channel", "stable")
            .put("namespace", SUB)
            .put("placement", new JsonObject().put("selector", "env=dev"))
            .put("version", new JsonObject().put("pin", "0.2.0"))
            .put("approval", "Automatic");
    assertThat(
            api.json("PUT", "/api/v1/subscriptions/" + SUB, TestControlPlane.ADMIN_TOKEN, spec)
                .status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(
            () -> {
              JsonObject status =
                  api.get("/api/v1/subscriptions/" + SUB + "/status", TestControlPlane.ADMIN_TOKEN)
                      .json();
              return status.getJsonArray("items").stream()
                      .map(JsonObject.class::cast)
                      .filter(
                          i ->
                              "Succeeded".equals(i.getString("phase"))
                                  && "0.2.0".equals(i.getString("installedVersion")))
                      .count()
                  == 2;
            });
    demo(cluster("sim-01"), "shop", "a", true);
    demo(cluster("sim-01"), "shop", "b", false);
    demo(cluster("sim-01"), "shop", "c", false);
    demo(cluster("sim-02"), "shop", "z", false);
    for (InventoryReporter reporter : simulation.simulation().inventories()) {
      reporter.collectNow();
    }

    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> demoCount(operator(inventory("sim-01"), "olmstead-demo-operator")) == 3);
    JsonObject inventory = inventory("sim-01");
    JsonObject operator = operator(inventory, "olmstead-demo-operator");
    assertThat(operator.getString("subscription")).isEqualTo(SUB);
    assertThat(operator.getString("version")).isEqualTo("0.2.0");
    assertThat(operator.getString("phase")).isEqualTo("Succeeded");
    assertThat(operator.getJsonArray("customResources").getJsonObject(0).getString("kind"))
        .isEqualTo("Demo");
    JsonArray stacks = operator.getJsonArray("stacks");
    assertThat(stacks).hasSize(1);
    assertThat(stacks.getJsonObject(0).getString("name")).isEqualTo("a");
    assertThat(
            stacks
                .getJsonObject(0)
                .getJsonObject("pods")
                .getJsonObject("requests")
                .getLong("cpuMillis"))
        .isEqualTo(200);
    JsonObject dependency = operator(inventory, "olmstead-demo-db");
    assertThat(dependency.getString("dependencyOf")).isEqualTo(SUB);
    assertThat(dependency.getString("version")).startsWith("1.");
    assertThat(dependency.getJsonArray("customResources").getJsonObject(0).getString("name"))
        .isEqualTo("demodatabases.db.demo.olmstead.io");

    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(300))
        .until(
            () -> {
              // the dependency may reach sim-02's inventory in a later report than the operator
              JsonObject sim02 = inventory("sim-02");
              return demoCount(operator(sim02, "olmstead-demo-operator")) == 1
                  && !operator(sim02, "olmstead-demo-db").isEmpty();
            });
    JsonObject fleet = fleetItem("", "olmstead-demo-operator");
    assertThat(fleet.getString("version")).isEqualTo("0.2.0");
    assertThat(fleet.getLong("clusters")).isEqualTo(2);
    assertThat(fleet.getLong("customResourceCount")).isEqualTo(4);
    assertThat(fleet.getJsonArray("customResources").getJsonObject(0).getLong("count"))
        .isEqualTo(4);
    assertThat(fleet.getJsonObject("applicationPods").getLong("count")).isEqualTo(1);
    assertThat(
            fleet.getJsonObject("applicationPods").getJsonObject("requests").getLong("memoryBytes"))
        .isEqualTo(64L * 1024 * 1024);
    assertThat(fleet.getJsonObject("applicationPods").containsKey("usage"))
        .as("no metrics.k8s.io")
        .isFalse();
    assertThat(
            fleetItem("?selector=region%3Dus-east", "olmstead-demo-operator")
                .getLong("customResourceCount"))
        .isEqualTo(3);
    assertThat(fleetItem("", "olmstead-demo-db").getLong("clusters")).isEqualTo(2);
    assertThat(
            api.get("/api/v1/inventory?team=nobody", TestControlPlane.ADMIN_TOKEN)
                .json()
                .getJsonArray("items"))
        .isEmpty();
    assertThat(api.get("/api/v1/inventory?selector=%3D%3D", TestControlPlane.ADMIN_TOKEN).status())
        .isEqualTo(400);

    cp.controlPlane()
        .inventory()
        .refreshMetrics()
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    String metrics =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(metrics)
        .contains(
            "olmstead_inventory_custom_resources{crd=\""
                + DEMO_CRD
                + "\",package=\"olmstead-demo-operator\"} 4.0");
    assertThat(metrics).contains("olmstead_inventory_clusters{package=\"olmstead-demo-db\"} 2.0");
    assertThat(metrics).doesNotContain("sim-01\"");
  }

  /** A Demo custom resource; with {@code pod}, the pod it owns (as an operator would create it). */
  private static void demo(KubernetesClient client, String ns, String name, boolean pod) {
    if (client.namespaces().withName(ns).get() == null) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    String uid =
        client
            .genericKubernetesResources("demo.olmstead.io/v1alpha1", "Demo")
            .inNamespace(ns)
            .resource(
                new GenericKubernetesResourceBuilder()
                    .withApiVersion("demo.olmstead.io/v1alpha1")
                    .withKind("Demo")
                    .withNewMetadata()
                    .withName(name)
                    .withNamespace(ns)
                    .endMetadata()
                    .build())
            .create()
            .getMetadata()
            .getUid();
    if (pod) {
      client
          .pods()
          .inNamespace(ns)
          .resource(
              new PodBuilder()
                  .withNewMetadata()
                  .withName(name + "-0")
                  .addNewOwnerReference()
                  .withKind("Demo")
                  .withName(name)
                  .withUid(uid)
                  .withApiVersion("demo.olmstead.io/v1alpha1")
                  .endOwnerReference()
                  .endMetadata()
                  .withNewSpec()
                  .addToContainers(
                      new ContainerBuilder()
                          .withName("app")
                          .withResources(
                              new ResourceRequirementsBuilder()
                                  .withRequests(
                                      Map.of(
                                          "cpu",
                                          new Quantity("200m"),
                                          "memory",
                                          new Quantity("64Mi")))
                                  .build())
                          .build())
                  .endSpec()
                  .build())
          .create();
    }
  }

  private static KubernetesClient cluster(String name) {
    return simulation.simulation().clusters().stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .map(SimulatedCluster::client)
        .orElseThrow();
  }

  private static JsonObject inventory(String cluster) {
    ApiClient.Response r =
        api.get("/api/v1/clusters/" + cluster + "/inventory", TestControlPlane.ADMIN_TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private static JsonObject operator(JsonObject inventory, String pkg) {
    return inventory.getJsonArray("operators").stream()
        .map(JsonObject.class::cast)
        .filter(o -> pkg.equals(o.getString("package")))
        .findFirst()
        .orElse(new JsonObject());
  }

  private static long demoCount(JsonObject operator) {
    JsonArray crs = operator.getJsonArray("customResources", new JsonArray());
    return crs.isEmpty() ? -1 : crs.getJsonObject(0).getLong("count");
  }

  private static JsonObject fleetItem(String query, String pkg) {
    ApiClient.Response r = api.get("/api/v1/inventory" + query, TestControlPlane.ADMIN_TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().getJsonArray("items").stream()
        .map(JsonObject.class::cast)
        .filter(o -> pkg.equals(o.getString("package")))
        .findFirst()
        .orElseThrow();
  }
}
