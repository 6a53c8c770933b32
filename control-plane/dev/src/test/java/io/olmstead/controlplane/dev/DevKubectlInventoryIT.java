package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.Kubectl;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dev mode's simulated cluster takes custom resources from the installed {@code kubectl} through
 * the kubeconfig dev writes for it, and the inventory over REST counts them: the demo operator is
 * installed by its agent (which creates the Demo CRD in the mock), then {@code kubectl create -f}
 * (no {@code --validate=false}), {@code get} and {@code delete} of Demo custom resources, each
 * change seen in {@code GET /api/v1/clusters/sim-01/inventory} after the agent's next inventory
 * round. Skipped, saying so, without kubectl.
 */
class DevKubectlInventoryIT {
  private static final String SUB = "demo-operator";

  /**
   * Shorter than dev's {@link DevSimulation#INVENTORY_INTERVAL} to keep the test quick; the same
   * reporter.
   */
  private static final Duration INVENTORY_EVERY = Duration.ofSeconds(2);

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static TestControlPlane cp;
  private static ApiClient api;
  private static DevSimulation simulation;
  private static Path dir;
  private static Path kubeconfig;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Kubectl.path() != null,
        "kubectl is not installed (not on PATH): DevKubectlInventoryIT skipped");
    dir = Files.createTempDirectory("dev-kubectl");
    cp = TestControlPlane.start(TestDatabase.create(DevKubectlInventoryIT.class), Map.of());
    api = new ApiClient(cp);
    DemoCatalog.ensureLoaded(cp.controlPlane().vertx(), cp.controlPlane().pool())
        .toCompletionStage()
        .toCompletableFuture()
        .get(1, TimeUnit.MINUTES);
    simulation =
        DevSimulation.start(
            cp.controlPlane().vertx(),
            cp.controlPlane().pool(),
            URI.create(cp.baseUrl()),
            1,
            List.of(),
            Duration.ofMillis(500),
            INVENTORY_EVERY);
    kubeconfig = simulation.writeKubeconfigs(dir).files().get(0);
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
  void customResourcesMadeWithKubectlShowInTheClustersInventory() throws Exception {
    assertThat(kubeconfig).isEqualTo(dir.resolve("clusters/sim-01.kubeconfig").toAbsolutePath());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig)))
        .isEqualTo("rw-------");
    assertThat(run("config", "current-context")).isEqualTo("sim-01");

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
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(300))
        .until(
            () ->
                api
                    .get("/api/v1/subscriptions/" + SUB + "/status", TestControlPlane.ADMIN_TOKEN)
                    .json()
                    .getJsonArray("items")
                    .stream()
                    .map(JsonObject.class::cast)
                    .anyMatch(i -> "Succeeded".equals(i.getString("phase"))));
    assertThat(run("get", "crds", "-o", "name")).contains("demos.demo.olmstead.io");
    await().atMost(WAIT).until(() -> demoCount() == 0);

    Path manifest = dir.resolve("demos.yaml");
    Files.writeString(
        manifest,
        """
        apiVersion: v1
        kind: Namespace
        metadata:
          name: shop
        ---
        apiVersion: demo.olmstead.io/v1alpha1
        kind: Demo
        metadata:
          name: cart
          namespace: shop
        spec:
          size: 1
        ---
        apiVersion: demo.olmstead.io/v1alpha1
        kind: Demo
        metadata:
          name: checkout
          namespace: shop
        """);
    assertThat(run("create", "-f", manifest.toString()))
        .contains(
            "namespace/shop created",
            "demo.demo.olmstead.io/cart created",
            "demo.demo.olmstead.io/checkout created");
    assertThat(run("get", "demos", "-n", "shop", "-o", "name").lines())
        .containsExactlyInAnyOrder("demo.demo.olmstead.io/cart", "demo.demo.olmstead.io/checkout");
    await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> demoCount() == 2);

    assertThat(run("delete", "demo", "cart", "-n", "shop")).contains("\"cart\" deleted");
    await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> demoCount() == 1);
    assertThat(run("get", "demos", "-A", "-o", "name")).isEqualTo("demo.demo.olmstead.io/checkout");
  }

  /**
   * The Demo count the inventory over REST shows for the demo operator on sim-01; -1 before it is
   * reported.
   */
  private static long demoCount() {
    ApiClient.Response r =
        api.get("/api/v1/clusters/sim-01/inventory", TestControlPlane.ADMIN_TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().getJsonArray("operators").stream()
        .map(JsonObject.class::cast)
        .filter(o -> "olmstead-demo-operator".equals(o.getString("package")))
        .findFirst()
        .map(o -> o.getJsonArray("customResources", new JsonArray()))
        .filter(crs -> !crs.isEmpty())
        .map(crs -> crs.getJsonObject(0).getLong("count"))
        .orElse(-1L);
  }

  private static String run(String... args) throws IOException, InterruptedException {
    return Kubectl.run(kubeconfig, args);
  }
}
