package io.olmstead.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.http.ApiContract;
import io.olmstead.controlplane.http.OperationPolicy;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every API-token operation of the spec × every role, and team scoping on clusters, tokens and the
 * audit log.
 */
class RoleMatrixIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Map<Role, String> TOKENS = new EnumMap<>(Role.class);

  /** The spec, parsed once for the class rather than once per case (200 KB of YAML). */
  private static final ApiContract CONTRACT = ApiContract.load();

  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(RoleMatrixIT.class);
    api = new ApiClient(cp);
    for (Role role : Role.values()) {
      TOKENS.put(
          role, api.createToken(ADMIN, "matrix-" + role.wireName(), role.wireName(), List.of()));
    }
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels) VALUES "
            + "('team-a-1', '{\"olmstead.io/team\":\"team-a\",\"env\":\"prod\"}'), "
            + "('team-b-1', '{\"olmstead.io/team\":\"team-b\",\"env\":\"prod\"}'), "
            + "('no-team-1', '{\"env\":\"prod\"}')");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  static Stream<Arguments> operationsByRole() {
    List<Arguments> cases = new ArrayList<>();
    CONTRACT.policies().values().stream()
        .filter(OperationPolicy::apiTokenAuth)
        .sorted((a, b) -> a.operationId().compareTo(b.operationId()))
        .forEach(
            policy -> {
              for (Role role : Role.values()) {
                cases.add(Arguments.of(policy.operationId(), role));
              }
            });
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("operationsByRole")
  void eachRoleReachesExactlyTheOperationsItsRoleAllows(String operationId, Role role) {
    OperationPolicy policy = CONTRACT.policy(operationId).orElseThrow();
    Response response = call(policy, TOKENS.get(role));
    if (role.includes(policy.role().orElseThrow())) {
      assertThat(response.status())
          .as(operationId + " as " + role + ": " + response.body())
          .isNotIn(401, 403);
    } else {
      assertThat(response.status())
          .as(operationId + " as " + role + ": " + response.body())
          .isEqualTo(403);
      assertThat(response.code()).isEqualTo("forbidden");
    }
  }

  static Stream<String> apiTokenOperations() {
    return CONTRACT.policies().values().stream()
        .filter(OperationPolicy::apiTokenAuth)
        .map(OperationPolicy::operationId)
        .sorted();
  }

  @ParameterizedTest
  @MethodSource("apiTokenOperations")
  void everyOperationRefusesMissingAndUnknownTokensWith401(String operationId) {
    OperationPolicy policy = CONTRACT.policy(operationId).orElseThrow();
    for (String token : new String[] {null, "olm_not-a-real-token-0000000000", "x".repeat(600)}) {
      Response response = call(policy, token);
      assertThat(response.status()).as(operationId + ": " + response.body()).isEqualTo(401);
      assertThat(response.code()).isEqualTo("unauthorized");
      assertThat(response.header("content-type")).isEqualTo("application/problem+json");
    }
  }

  @Test
  void aTeamScopedViewerSeesOnlyItsTeamsClusters() {
    String viewer = api.createToken(ADMIN, "team-a-viewer", "viewer", List.of("team-a"));
    Response list = api.get("/api/v1/clusters?limit=500", viewer);
    assertThat(list.items().stream().map(item -> ((JsonObject) item).getString("name")).toList())
        .containsExactly("team-a-1");
    assertThat(api.get("/api/v1/clusters/team-a-1", viewer).status()).isEqualTo(200);
    // other teams' clusters are answered as if they did not exist
    assertThat(api.get("/api/v1/clusters/team-b-1", viewer).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/clusters/no-team-1", viewer).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/clusters/team-a-1/inventory", viewer).status()).isEqualTo(200);
    assertThat(api.get("/api/v1/clusters/team-b-1/inventory", viewer).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/inventory?team=team-b", viewer).items()).isEmpty();
  }

  @Test
  void aTeamScopedAdminChangesOnlyItsTeamsClustersAndCannotGiveThemAway() {
    String admin = api.createToken(ADMIN, "team-a-admin", "admin", List.of("team-a"));
    assertThat(patch("team-b-1", admin, "{\"labels\":{\"env\":\"dev\"}}").status()).isEqualTo(404);
    assertThat(patch("team-a-1", admin, "{\"labels\":{\"olmstead.io/team\":\"team-b\"}}").status())
        .isEqualTo(403);
    assertThat(patch("team-a-1", admin, "{\"labels\":{\"olmstead.io/team\":null}}").status())
        .isEqualTo(403);
    assertThat(patch("team-a-1", admin, "{\"labels\":{\"env\":\"staging\"}}").status())
        .isEqualTo(200);
    assertThat(api.delete("/api/v1/clusters/team-b-1", admin).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/clusters/team-b-1", ADMIN).status()).isEqualTo(200);
    assertThat(api.get("/api/v1/audit", admin).status()).isEqualTo(403);
    // catalogs are shared by every team: readable, not changeable, by a team-scoped admin
    assertThat(api.get("/api/v1/catalogs", admin).status()).isEqualTo(200);
    assertThat(
            api.send(
                    "PUT",
                    "/api/v1/catalogs/team-a-catalog",
                    admin,
                    "application/json",
                    "{}".getBytes(StandardCharsets.UTF_8),
                    Map.of())
                .status())
        .isEqualTo(403);
    assertThat(
            api.send(
                    "POST",
                    "/api/v1/catalogs/team-a-catalog/revisions",
                    admin,
                    "application/x-ndjson",
                    "{}".getBytes(StandardCharsets.UTF_8),
                    Map.of())
                .status())
        .isEqualTo(403);
    assertThat(api.delete("/api/v1/catalogs/team-a-catalog", admin).status()).isEqualTo(403);
    assertThat(api.get("/api/v1/catalogs/team-a-catalog", ADMIN).status()).isEqualTo(404);
  }

  @Test
  void refusedChangesAreAuditedAsDenied() {
    Response refused =
        patch("no-team-1", TOKENS.get(Role.VIEWER), "{\"labels\":{\"env\":\"dev\"}}");
    assertThat(refused.status()).isEqualTo(403);
    Response audit = api.get("/api/v1/audit?limit=100", ADMIN);
    assertThat(
            audit.items().stream()
                .map(JsonObject.class::cast)
                .filter(
                    e ->
                        e.getString("outcome").equals("denied")
                            && e.getString("actor").equals("token:matrix-viewer")
                            && e.getString("requestId").equals(refused.header("X-Request-Id"))))
        .hasSize(1);
  }

  @Test
  void aChangeToAnotherTeamsClusterIsAnsweredLikeAMissingOneButAuditedAsDenied() {
    String admin = api.createToken(ADMIN, "team-a-auditee", "admin", List.of("team-a"));
    Response foreign = patch("team-b-1", admin, "{\"labels\":{\"env\":\"dev\"}}");
    Response missing = patch("ghost-1", admin, "{\"labels\":{\"env\":\"dev\"}}");
    assertThat(foreign.status()).isEqualTo(404);
    assertThat(foreign.json().getString("detail").replace("team-b-1", "ghost-1"))
        .isEqualTo(missing.json().getString("detail"));
    List<JsonObject> audit =
        api.get("/api/v1/audit?limit=100", ADMIN).items().stream()
            .map(JsonObject.class::cast)
            .toList();
    assertThat(audit)
        .filteredOn(e -> e.getString("requestId").equals(foreign.header("X-Request-Id")))
        .extracting(e -> e.getString("outcome"))
        .containsExactly("denied");
    assertThat(audit)
        .filteredOn(e -> e.getString("requestId").equals(missing.header("X-Request-Id")))
        .extracting(e -> e.getString("outcome"))
        .containsExactly("failure");
  }

  private static Response patch(String cluster, String token, String body) {
    return api.send(
        "PATCH",
        "/api/v1/clusters/" + cluster,
        token,
        "application/merge-patch+json",
        body.getBytes(StandardCharsets.UTF_8),
        Map.of());
  }

  /**
   * A plausible request for the operation: placeholders filled, a JSON body where one is accepted.
   */
  private static Response call(OperationPolicy policy, String token) {
    String path =
        policy
            .path()
            .replace("{name}", "matrix")
            .replace("{package}", "pkg")
            .replace("{channel}", "stable")
            .replace("{bundle}", "b")
            .replace("{id}", "00000000-0000-4000-8000-000000000000")
            .replace("{digest}", "sha256:" + "0".repeat(64));
    if (policy.operationId().equals("getUpgradePath")) {
      path += "?from=pkg.v1.0.0";
    }
    if (policy.operationId().equals("getFleetUpgradeReadiness")) {
      path += "?version=4.18";
    }
    String contentType =
        policy.acceptsBody()
            ? policy.mediaTypes().stream().sorted().findFirst().orElseThrow()
            : null;
    byte[] body = policy.acceptsBody() ? "{}".getBytes(StandardCharsets.UTF_8) : null;
    return api.send(policy.method(), path, token, contentType, body, Map.of());
  }
}
