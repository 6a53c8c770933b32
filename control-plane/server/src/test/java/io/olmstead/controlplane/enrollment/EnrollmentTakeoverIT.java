package io.olmstead.controlplane.enrollment;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Enrollment never moves a cluster into another team: not with a token a team admin binds to
 * another team's cluster, not with a token whose cluster changed team after it was made, and not by
 * an agent naming a team itself.
 */
class EnrollmentTakeoverIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String TEAM = "olmstead.io/team";
  private static TestControlPlane cp;
  private static ApiClient api;
  private static String alphaAdmin;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(EnrollmentTakeoverIT.class);
    api = new ApiClient(cp);
    alphaAdmin = api.createToken(ADMIN, "takeover-alpha-admin", "admin", List.of("alpha"));
    String beta = token(ADMIN, null, "beta").json().getString("token");
    assertThat(enroll(beta, "beta-1", Map.of()).status()).isEqualTo(201);
    String none = token(ADMIN, null, null).json().getString("token");
    assertThat(enroll(none, "loose-1", Map.of()).status()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void aTeamAdminCannotBindATokenToAnotherTeamsClusterOrToOneOfNoTeam() {
    Response beta = token(alphaAdmin, "beta-1", "alpha");
    assertThat(beta.status()).as(beta.body()).isEqualTo(403);
    assertThat(beta.body()).doesNotContain("\"beta\"");
    assertThat(token(alphaAdmin, "loose-1", "alpha").status()).isEqualTo(403);
    assertThat(token(alphaAdmin, "free-1", "alpha").status()).as("a free name").isEqualTo(201);
    assertThat(team("beta-1")).isEqualTo("beta");
    assertThat(team("loose-1")).isNull();
  }

  @Test
  void anUnscopedAdminsTokenCannotMoveABoundClusterToAnotherTeamEither() {
    assertThat(token(ADMIN, "beta-1", "alpha").status()).isEqualTo(409);
    assertThat(token(ADMIN, "loose-1", "alpha").status()).isEqualTo(409);
    // a bound token without a team label re-enrolls the cluster where it is
    String same = token(ADMIN, "beta-1", null).json().getString("token");
    assertThat(enroll(same, "beta-1", Map.of()).status()).isEqualTo(201);
    assertThat(team("beta-1")).isEqualTo("beta");
  }

  @Test
  void aClusterThatChangedTeamAfterTheTokenWasMadeIsNotMovedBack() {
    String alpha = token(alphaAdmin, null, "alpha").json().getString("token");
    assertThat(enroll(alpha, "moving-1", Map.of()).status()).isEqualTo(201);
    String rebind = token(alphaAdmin, "moving-1", "alpha").json().getString("token");
    Response moved =
        api.send(
            "PATCH",
            "/api/v1/clusters/moving-1",
            ADMIN,
            "application/merge-patch+json",
            ("{\"labels\":{\"" + TEAM + "\":\"beta\"}}").getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(moved.status()).isEqualTo(200);

    Response refused = enroll(rebind, "moving-1", Map.of());
    assertThat(refused.status()).as(refused.body()).isEqualTo(403);
    assertThat(team("moving-1")).isEqualTo("beta");
    // the refused enrollment did not spend the token's use: once the cluster is alpha's again it
    // works
    api.send(
        "PATCH",
        "/api/v1/clusters/moving-1",
        ADMIN,
        "application/merge-patch+json",
        ("{\"labels\":{\"" + TEAM + "\":\"alpha\"}}").getBytes(StandardCharsets.UTF_8),
        Map.of());
    assertThat(enroll(rebind, "moving-1", Map.of()).status()).isEqualTo(201);
  }

  @Test
  void aNameFreeWhenTheTokenWasMadeButTakenByAnotherTeamSinceIsRefused() {
    String alpha = token(alphaAdmin, "contested-1", "alpha").json().getString("token");
    String beta = token(ADMIN, null, "beta").json().getString("token");
    assertThat(enroll(beta, "contested-1", Map.of()).status()).isEqualTo(201);
    assertThat(enroll(alpha, "contested-1", Map.of()).status()).isEqualTo(403);
    assertThat(team("contested-1")).isEqualTo("beta");
  }

  @Test
  void anAgentCannotChooseItsTeam() {
    String none = token(ADMIN, null, null).json().getString("token");
    Response claimed = enroll(none, "claims-1", Map.of(TEAM, "alpha"));
    assertThat(claimed.status()).as(claimed.body()).isEqualTo(403);
    assertThat(api.get("/api/v1/clusters/claims-1", ADMIN).status()).isEqualTo(404);
    String alpha = token(alphaAdmin, null, "alpha").json().getString("token");
    assertThat(enroll(alpha, "claims-2", Map.of(TEAM, "beta")).status()).isEqualTo(403);
    assertThat(enroll(alpha, "claims-2", Map.of(TEAM, "alpha")).status()).isEqualTo(201);
    assertThat(team("claims-2")).isEqualTo("alpha");
  }

  @Test
  void theEnrollmentsAuditEntryCarriesItsRequestId() {
    String token = token(ADMIN, null, null).json().getString("token");
    Response enrolled =
        api.send(
            "POST",
            "/api/v1/agent/enroll",
            token,
            "application/json",
            new JsonObject()
                .put("clusterName", "audited-1")
                .put("facts", new JsonObject())
                .encode()
                .getBytes(StandardCharsets.UTF_8),
            Map.of("X-Request-Id", "enroll-audited-1"));
    assertThat(enrolled.status()).as(enrolled.body()).isEqualTo(201);
    JsonObject entry =
        api.get("/api/v1/audit?limit=500", ADMIN).items().stream()
            .map(JsonObject.class::cast)
            .filter(e -> "agent.enroll".equals(e.getString("action")))
            .filter(e -> "clusters/audited-1".equals(e.getString("resource")))
            .findFirst()
            .orElseThrow();
    assertThat(entry.getString("requestId")).isEqualTo("enroll-audited-1");
    assertThat(entry.getString("actor")).startsWith("enrollment-token:");
    assertThat(entry.getString("outcome")).isEqualTo("success");
  }

  private static Response token(String as, String clusterName, String team) {
    JsonObject body = new JsonObject().put("ttlSeconds", 600).put("maxUses", 5);
    if (clusterName != null) {
      body.put("clusterName", clusterName);
    }
    if (team != null) {
      body.put("labels", new JsonObject().put(TEAM, team));
    }
    return api.json("POST", "/api/v1/enrollment-tokens", as, body);
  }

  private static Response enroll(String token, String cluster, Map<String, String> labels) {
    return api.send(
        "POST",
        "/api/v1/agent/enroll",
        token,
        "application/json",
        new JsonObject()
            .put("clusterName", cluster)
            .put("labels", new JsonObject(new java.util.HashMap<String, Object>(labels)))
            .put("facts", new JsonObject())
            .encode()
            .getBytes(StandardCharsets.UTF_8),
        Map.of());
  }

  private static String team(String cluster) {
    Response response = api.get("/api/v1/clusters/" + cluster, ADMIN);
    assertThat(response.status()).isEqualTo(200);
    return response.json().getJsonObject("labels").getString(TEAM);
  }
}
