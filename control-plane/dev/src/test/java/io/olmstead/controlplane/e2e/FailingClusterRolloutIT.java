package io.olmstead.controlplane.e2e;

import static io.olmstead.controlplane.catalog.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.catalog.ApiClient;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code dev --simulate 3 --simulate-fail sim-03} as a new user tries it (issue 12, broken flow
 * 12): the preview names the cluster that already fails, and a rollout fails that cluster's wave
 * within seconds with the agent's own error, not after its 10-minute progress deadline.
 */
class FailingClusterRolloutIT {
  private static final String SUB = "demo-operator";
  private static TestControlPlane cp;
  private static DevSimulation simulation;
  private static ApiClient api;

  @BeforeAll
  static void start() throws Exception {
    cp = TestControlPlane.start(TestDatabase.create(FailingClusterRolloutIT.class), Map.of());
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
            List.of("sim-03"),
            Duration.ofMillis(500));
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
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

  private static JsonObject statusOf(String cluster) {
    for (Object o : json(api.get("/subscriptions/" + SUB + "/status")).getJsonArray("items")) {
      if (cluster.equals(((JsonObject) o).getString("cluster"))) {
        return (JsonObject) o;
      }
    }
    return null;
  }

  private static JsonObject rolloutCluster(String id, String cluster) {
    for (Object o : json(api.get("/rollouts/" + id + "/clusters")).getJsonArray("items")) {
      if (cluster.equals(((JsonObject) o).getString("name"))) {
        return (JsonObject) o;
      }
    }
    throw new AssertionError("no rollout cluster " + cluster);
  }

  @Test
  void theFailingClusterIsPreviewedAndFailsItsWavePromptlyWithTheAgentsMessage() {
    HttpResponse<String> put =
        api.putJson(
            "/subscriptions/" + SUB,
            new JsonObject()
                .put("catalog", DemoCatalog.NAME)
                .put("package", "olmstead-demo-operator")
                .put("channel", "stable")
                .put("namespace", "demo-operator")
                .put("placement", new JsonObject().put("selector", "env=dev"))
                .put("version", new JsonObject().put("pin", "0.1.0"))
                .put("approval", "Automatic"),
            Map.of());
    assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              assertThat(statusOf("sim-01").getString("phase")).isEqualTo("Succeeded");
              assertThat(statusOf("sim-02").getString("phase")).isEqualTo("Succeeded");
              assertThat(statusOf("sim-03").getString("phase")).isEqualTo("Failed");
            });

    String body =
        "{\"subscription\":\""
            + SUB
            + "\",\"targetVersion\":\"0.2.0\",\"strategy\":{\"canary\":"
            + "{\"selector\":\"region=ap-south\"},\"progressDeadlineSeconds\":600,\"maxFailures\":0}}";
    JsonObject preview =
        json(api.send("POST", "/rollouts/preview", body.getBytes(), "application/json", Map.of()));
    assertThat(preview.getJsonArray("failing")).hasSize(1);
    JsonObject failing = preview.getJsonArray("failing").getJsonObject(0);
    assertThat(failing.getString("name")).isEqualTo("sim-03");
    assertThat(failing.getString("reason")).isEqualTo("InstallCheckFailed");

    HttpResponse<String> created =
        api.send("POST", "/rollouts", body.getBytes(), "application/json", Map.of());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = json(created).getString("id");
    // the agent answers the approval with the new target at once, so its failure counts from its
    // own report
    // (InstallCheckFailed, the target version), not from the grace given to a cluster that says
    // nothing new
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              JsonObject member = rolloutCluster(id, "sim-03");
              assertThat(member.getString("state")).as(member.encode()).isEqualTo("Failed");
              // the reason vocabulary's message: Failed (the agent's reason: its message)
              assertThat(member.getJsonObject("reason").getString("code")).isEqualTo("Failed");
              assertThat(member.getString("message"))
                  .startsWith("Failed (InstallCheckFailed: ")
                  .contains("exceeded its progress deadline");
              assertThat(member.getJsonObject("report").getString("targetVersion"))
                  .isEqualTo("0.2.0");
              assertThat(member.getJsonObject("report").getString("phase")).isEqualTo("Failed");
            });
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(json(api.get("/rollouts/" + id)).getString("state"))
                    .isEqualTo("Paused"));
    assertThat(rolloutCluster(id, "sim-01").getString("state"))
        .as("the next wave never opened")
        .isEqualTo("Pending");
  }
}
