package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fails when the routes the server serves under /api/v1 and the operations of openapi.yaml
 * disagree.
 */
class ApiSpecRoutesIT {
  private static TestControlPlane cp;
  private static ApiClient api;
  private static ApiContract contract;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(ApiSpecRoutesIT.class);
    api = new ApiClient(cp);
    contract = ApiContract.load();
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  /**
   * Modules written by other components in parallel, by the spec tag of their operations: an
   * operation of such a tag is tolerated as unbound only while its module class does not exist at
   * all; once it does, it must be bound.
   */
  private static final Map<String, String> MODULE_OF_TAG =
      Map.of(
          "catalogs", "io.olmstead.controlplane.catalog.CatalogsModule",
          "subscriptions", "io.olmstead.controlplane.subscription.SubscriptionsModule",
          "rollouts", "io.olmstead.controlplane.rollout.RolloutsModule");

  private static boolean moduleNotWrittenYet(String operationId) {
    String module = MODULE_OF_TAG.get(tagOf(operationId));
    if (module == null) {
      return false;
    }
    try {
      Class.forName(module);
      return false;
    } catch (ClassNotFoundException e) {
      return true;
    }
  }

  private static String tagOf(String operationId) {
    JsonObject paths = contract.published().getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (Map.Entry<String, Object> entry : paths.getJsonObject(path)) {
        if (entry.getValue() instanceof JsonObject operation
            && operationId.equals(operation.getString("operationId"))) {
          JsonArray tags = operation.getJsonArray("tags");
          return tags == null || tags.isEmpty() ? null : tags.getString(0);
        }
      }
    }
    return null;
  }

  @Test
  void everyOperationOfTheSpecHasAHandlerBound() {
    assertThat(cp.controlPlane().api().unbound().stream().filter(id -> !moduleNotWrittenYet(id)))
        .as("operations in openapi.yaml no ApiModule binds")
        .isEmpty();
  }

  @Test
  void theApiRouterHasOneRouteForEachOperationAndNoOther() {
    Set<String> routed = new HashSet<>();
    for (Route route : cp.controlPlane().api().router().getRoutes()) {
      String operationId = route.getMetadata("openApiOperationId");
      if (operationId == null) {
        assertThat(route.getPath())
            .as("only the gate and failure routes lack an operation")
            .isNull();
        continue;
      }
      assertThat(routed.add(operationId)).as("one route per operation: " + operationId).isTrue();
      OperationPolicy policy = contract.policy(operationId).orElseThrow();
      assertThat(route.methods().stream().map(m -> m.name()).collect(Collectors.toSet()))
          .containsExactly(policy.method());
    }
    assertThat(routed).isEqualTo(contract.policies().keySet());
  }

  @Test
  void noRouteUnderTheApiPathExistsOutsideTheSpec() {
    Set<String> specified =
        contract.policies().values().stream()
            .map(p -> p.method() + " " + p.path())
            .collect(Collectors.toSet());
    for (Route route : cp.controlPlane().router().getRoutes()) {
      String path = route.getPath();
      if (path == null || !path.startsWith(contract.basePath())) {
        continue;
      }
      if (path.equals(contract.basePath() + "/") && route.methods() == null) {
        continue; // the mount of the spec-built router
      }
      String specPath = path.replaceAll(":([A-Za-z0-9_]+)", "{$1}");
      assertThat(route.methods()).as("route " + path + " must name its methods").isNotNull();
      route
          .methods()
          .forEach(
              method ->
                  assertThat(specified)
                      .as("route outside openapi.yaml")
                      .contains(method.name() + " " + specPath));
    }
  }

  @Test
  void everyOperationIsReachableAndUnknownPathsOrMethodsAreProblems() {
    for (OperationPolicy policy : contract.policies().values()) {
      String path =
          policy
              .path()
              .replace("{name}", "x")
              .replace("{package}", "p")
              .replace("{channel}", "c")
              .replace("{bundle}", "b")
              .replace("{id}", "00000000-0000-4000-8000-000000000000")
              .replace("{digest}", "sha256:" + "0".repeat(64));
      byte[] body = policy.acceptsBody() ? "{}".getBytes(StandardCharsets.UTF_8) : null;
      String type = policy.acceptsBody() ? policy.mediaTypes().iterator().next() : null;
      Response response = api.send(policy.method(), path, null, type, body, Map.of());
      if (!moduleNotWrittenYet(policy.operationId())) {
        assertThat(response.status())
            .as(policy.operationId() + ": " + response.body())
            .isNotIn(404, 405, 501);
      }
    }
    Response unknown = api.get("/api/v1/not-in-the-spec", TestControlPlane.ADMIN_TOKEN);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.header("content-type")).isEqualTo("application/problem+json");
    Response wrongMethod =
        api.send("POST", "/api/v1/clusters", TestControlPlane.ADMIN_TOKEN, null, null, Map.of());
    assertThat(wrongMethod.status()).isEqualTo(405);
    assertThat(wrongMethod.code()).isEqualTo("method-not-allowed");
    assertThat(contract.policies().values())
        .allSatisfy(policy -> assertThat(policy.operationId()).matches("[a-z][A-Za-z]+"));
    assertThat(contract.published().getString("openapi")).startsWith("3.1");
  }
}
