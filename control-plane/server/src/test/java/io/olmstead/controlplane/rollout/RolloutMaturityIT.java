package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Maturity in the rollout's preflight and preview, on hollow clusters (real PostgreSQL): the etcd
 * catalog of {@code ../shared/catalogs/bundled} with 0.9.4's first CRD served as {@code
 * apiextensions.k8s.io/v1beta1} (removed in Kubernetes 1.22). The preview shows the maturity diff
 * from 0.9.2 to 0.9.4 and fails the cluster on 1.29 with {@code RemovedApi}; a forbidden rule 0.9.4
 * breaks fails every cluster with {@code MaturityRequirement}, and a Block rollout holds them all
 * at 0.9.2. A viewer's preview does not ask the agents for a preflight.
 */
public class RolloutMaturityIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String BODY =
      "{\"subscription\":\"mt\",\"targetVersion\":\"0.9.4\",\"strategy\":"
          + "{\"batchSize\":3,\"preflightTimeoutSeconds\":20}}";

  /** The bundled etcd catalog of the shared folder: the class is skipped, saying so, without it. */
  public static final String ETCD = "catalogs/bundled/etcd/catalog.json";

  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures fx;
  private static HollowFleet fleet;

  @BeforeAll
  static void start() throws Exception {
    SharedFolder.require(ETCD);
    cp = TestControlPlane.start(TestDatabase.create(RolloutMaturityIT.class), Map.of());
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    assertThat(api.json("PUT", "/api/v1/catalogs/mt", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    ApiClient.Response up =
        api.send(
            "POST",
            "/api/v1/catalogs/mt/revisions",
            ADMIN,
            "application/x-ndjson",
            etcdWithRemovedApi().getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(up.status()).as(up.body()).isEqualTo(201);
    fx.update(
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, "
            + "version_kind, version_value, approval, created_by) VALUES ('mt', 'mt', 'etcd', 'singlenamespace-alpha', "
            + "'etcd', 'fleet=mt', 'pin', '0.9.2', 'Automatic', 'test')");
    fleet =
        HollowFleet.start(
            cp.controlPlane().vertx(),
            new HollowFleet.Settings(
                3,
                URI.create(cp.baseUrl()),
                fx.enrollmentToken(3, "{\"fleet\":\"mt\"}"),
                "mt-",
                Duration.ofMillis(300),
                0.0,
                Map.of(),
                null,
                0));
  }

  @AfterAll
  static void stop() {
    if (fleet != null) {
      fleet.close();
    }
    if (cp != null) {
      cp.close();
    }
  }

  /**
   * The bundled etcd catalog as NDJSON, 0.9.4's first CRD rewritten to
   * apiextensions.k8s.io/v1beta1.
   */
  public static String etcdWithRemovedApi() throws Exception {
    ObjectMapper json = new ObjectMapper();
    Path file = SharedFolder.require(ETCD);
    List<String> lines = new ArrayList<>();
    try (MappingIterator<JsonNode> docs =
        json.readerFor(JsonNode.class)
            .with(JsonParser.Feature.AUTO_CLOSE_SOURCE)
            .readValues(Files.readString(file))) {
      boolean done = false;
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (!done && "etcdoperator.v0.9.4".equals(doc.path("name").asText())) {
          for (JsonNode p : doc.path("properties")) {
            JsonNode data = p.path("value").path("data");
            if (!done && "olm.bundle.object".equals(p.path("type").asText())) {
              ObjectNode o = (ObjectNode) json.readTree(Base64.getDecoder().decode(data.asText()));
              if ("CustomResourceDefinition".equals(o.path("kind").asText())) {
                o.put("apiVersion", "apiextensions.k8s.io/v1beta1");
                ((ObjectNode) p.path("value"))
                    .put("data", Base64.getEncoder().encodeToString(json.writeValueAsBytes(o)));
                done = true;
              }
            }
          }
        }
        lines.add(json.writeValueAsString(doc));
      }
    }
    return String.join("\n", lines) + "\n";
  }

  private static Map<String, JsonObject> verdicts(JsonObject preview) {
    Map<String, JsonObject> out = new HashMap<>();
    for (Object w : preview.getJsonArray("waves")) {
      for (Object c : ((JsonObject) w).getJsonArray("clusters")) {
        out.put(((JsonObject) c).getString("name"), ((JsonObject) c).getJsonObject("preflight"));
      }
    }
    return out;
  }

  private static List<String> codes(JsonObject verdict) {
    return verdict.getJsonArray("findings").stream()
        .map(o -> ((JsonObject) o).getString("code"))
        .toList();
  }

  private static JsonObject preview(String token) {
    ApiClient.Response r = api.json("POST", "/api/v1/rollouts/preview", token, BODY);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  @Test
  void previewShowsTheMaturityDiffAndRemovedApisAndABlockRolloutHoldsWhatBreaksTheRequirements() {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                fx.count(
                        "SELECT count(*) FROM subscription_status WHERE "
                            + "subscription = 'mt' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                    == 3);
    fx.update(
        "UPDATE clusters SET kubernetes_version = CASE name WHEN 'mt-0001' THEN 'v1.29.3' "
            + "ELSE 'v1.21.14' END WHERE name LIKE 'mt-%'");

    // a viewer sees what is stored and asks no agent
    String viewer = api.createToken(ADMIN, "mt-viewer", "viewer", List.of());
    JsonObject seen = preview(viewer);
    assertThat(fx.count("SELECT count(*) FROM preflight_checks WHERE subscription = 'mt'"))
        .isZero();
    assertThat(verdicts(seen).get("mt-0002").getString("verdict")).isEqualTo("Pending");

    JsonObject preview = preview(ADMIN);
    JsonArray diff = preview.getJsonArray("maturityDiff");
    assertThat(diff).hasSize(1);
    assertThat(diff.getJsonObject(0).getString("fromVersion")).isEqualTo("0.9.2");
    assertThat(diff.getJsonObject(0).getString("to")).isEqualTo("etcdoperator.v0.9.4");
    assertThat(
            diff.getJsonObject(0).getJsonArray("introduced").stream()
                .map(o -> ((JsonObject) o).getString("rule")))
        .contains("portability/removed-api");
    Map<String, JsonObject> verdicts = verdicts(preview);
    assertThat(verdicts.get("mt-0001").getString("verdict")).isEqualTo("Fail");
    assertThat(codes(verdicts.get("mt-0001"))).contains(MaturityChecks.REMOVED_API);
    assertThat(verdicts.get("mt-0001").encode())
        .contains("apiextensions.k8s.io/v1beta1")
        .contains("v1.29.3");
    assertThat(codes(verdicts.get("mt-0002"))).doesNotContain(MaturityChecks.REMOVED_API);
    assertThat(
            fx.count(
                "SELECT count(*) FROM preflight_checks WHERE subscription = 'mt' "
                    + "AND requester LIKE 'preview:%'"))
        .isEqualTo(3);

    // requirements forbidding a rule 0.9.4 breaks: every cluster fails its preflight and a Block
    // rollout holds it
    fx.update(
        "UPDATE subscriptions SET requirements = '{\"maturity\":{\"forbid\":[\"portability/removed-api\"]}}' "
            + "WHERE name = 'mt'");
    Map<String, JsonObject> forbidden = verdicts(preview(ADMIN));
    assertThat(forbidden.values())
        .allSatisfy(
            v -> {
              assertThat(v.getString("verdict")).isEqualTo("Fail");
              assertThat(codes(v)).contains(MaturityChecks.REQUIREMENT);
            });
    ApiClient.Response created = api.json("POST", "/api/v1/rollouts", ADMIN, BODY);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String id = created.json().getString("id");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                fx.count(
                        "SELECT count(*) FROM rollout_clusters WHERE "
                            + "rollout_id = ? AND step = 'Blocked'",
                        id)
                    == 3);
    assertThat(
            fx.count(
                "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND approved_version IS NOT NULL",
                id))
        .isZero();
    assertThat(
            fx.query(
                    "SELECT message FROM rollout_clusters WHERE rollout_id = ? AND cluster = 'mt-0001'",
                    id)
                .get(0)
                .get("message")
                .toString())
        .startsWith("PreflightFailed: MaturityRequirement")
        .contains("RemovedApi");
  }
}
