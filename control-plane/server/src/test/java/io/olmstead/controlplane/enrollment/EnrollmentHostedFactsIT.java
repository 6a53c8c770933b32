package io.olmstead.controlplane.enrollment;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code facts.hypershift} is what the HyperShift watcher wrote (clusterID, desired version,
 * control plane namespace): an agent enrolling with an enrollment token (what dev's simulated
 * hosted agents do, and an admin can do for a watcher-enrolled cluster) replaces its own facts but
 * neither drops nor writes {@code facts.hypershift}.
 */
class EnrollmentHostedFactsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final JsonObject WATCHERS =
      new JsonObject()
          .put("clusterID", "8c9b-watcher")
          .put("desiredVersion", "4.19.7")
          .put("controlPlaneNamespace", "clusters-hc-01");
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(EnrollmentHostedFactsIT.class);
    api = new ApiClient(cp);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status, facts) VALUES ('clusters-hc-01',"
            + " '{\"olmstead.io/source\":\"hypershift\"}', 'pending', '{\"hypershift\":"
            + WATCHERS.encode()
            + "}')");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void reEnrollingAHostedClusterKeepsTheWatchersFactsAndTakesTheAgentsOthers() {
    String bound = token("clusters-hc-01");
    Response enrolled =
        enroll(
            bound,
            "clusters-hc-01",
            new JsonObject()
                .put("kubernetesVersion", "v1.32.0")
                .put("mode", "simulated")
                .put("hypershift", new JsonObject().put("clusterID", "claimed-by-the-agent")));
    assertThat(enrolled.status()).as(enrolled.body()).isEqualTo(201);

    JsonObject facts = facts("clusters-hc-01");
    assertThat(facts.getJsonObject("hypershift")).isEqualTo(WATCHERS);
    assertThat(facts.getString("kubernetesVersion")).isEqualTo("v1.32.0");
    assertThat(facts.getString("mode")).isEqualTo("simulated");
  }

  @Test
  void aNewClusterGetsNoHypershiftFactsFromItsAgent() {
    Response enrolled =
        enroll(
            token(null),
            "plain-1",
            new JsonObject()
                .put("kubernetesVersion", "v1.30.0")
                .put("hypershift", new JsonObject().put("desiredVersion", "9.99.0")));
    assertThat(enrolled.status()).as(enrolled.body()).isEqualTo(201);

    JsonObject facts = facts("plain-1");
    assertThat(facts.containsKey("hypershift")).as(facts.encode()).isFalse();
    assertThat(facts.getString("kubernetesVersion")).isEqualTo("v1.30.0");
  }

  private static String token(String clusterName) {
    JsonObject body = new JsonObject().put("ttlSeconds", 600).put("maxUses", 1);
    if (clusterName != null) {
      body.put("clusterName", clusterName);
    }
    Response created = api.json("POST", "/api/v1/enrollment-tokens", ADMIN, body);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().getString("token");
  }

  private static Response enroll(String token, String cluster, JsonObject facts) {
    return api.send(
        "POST",
        "/api/v1/agent/enroll",
        token,
        "application/json",
        new JsonObject()
            .put("clusterName", cluster)
            .put("labels", new JsonObject())
            .put("facts", facts)
            .encode()
            .getBytes(StandardCharsets.UTF_8),
        Map.of());
  }

  private static JsonObject facts(String cluster) {
    Response response = api.get("/api/v1/clusters/" + cluster, ADMIN);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().getJsonObject("facts");
  }
}
