package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.access.Role;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ApiContractTest {
  private final ApiContract contract = ApiContract.load();

  @Test
  void everyOperationUnderApiV1HasAnOperationIdAndApiTokenOperationsHaveARole() {
    assertThat(contract.basePath()).isEqualTo("/api/v1");
    assertThat(contract.policies()).isNotEmpty();
    contract
        .policies()
        .values()
        .forEach(
            policy -> {
              assertThat(policy.path()).startsWith("/api/v1/");
              if (policy.apiTokenAuth()) {
                assertThat(policy.role()).as(policy.operationId()).isPresent();
              }
            });
  }

  @Test
  void readsRolesMediaTypesAndRawBodiesFromTheSpec() {
    OperationPolicy upload = contract.policy("uploadCatalogRevision").orElseThrow();
    assertThat(upload.rawBody()).isTrue();
    assertThat(upload.role()).contains(Role.ADMIN);
    assertThat(upload.mediaTypes())
        .contains(
            "application/x-ndjson", "application/yaml", "application/gzip", "application/json");
    OperationPolicy patch = contract.policy("patchCluster").orElseThrow();
    assertThat(patch.mediaTypes()).containsExactly("application/merge-patch+json");
    assertThat(patch.jsonBody()).isTrue();
    assertThat(contract.policy("putSubscription").flatMap(OperationPolicy::role))
        .contains(Role.OPERATOR);
    assertThat(contract.policy("listClusters").flatMap(OperationPolicy::role))
        .contains(Role.VIEWER);
    OperationPolicy enroll = contract.policy("enrollAgent").orElseThrow();
    assertThat(enroll.apiTokenAuth()).isFalse();
    assertThat(enroll.role()).isEqualTo(Optional.empty());
  }

  @Test
  void theAdaptedContractLoadsIntoVertxOpenApi() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      OpenAPIContract openApi =
          contract
              .toOpenApi(vertx)
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      assertThat(openApi.operations()).hasSize(contract.policies().size());
      assertThat(
              openApi
                  .findOperation("/api/v1/clusters/prod-1", io.vertx.core.http.HttpMethod.PATCH)
                  .getOperationId())
          .isEqualTo("patchCluster");
      assertThat(openApi.operation("uploadCatalogRevision").getRequestBody()).isNull();
    } finally {
      vertx.close();
    }
  }

  @Test
  void everyArrayAClientCanSendIsBoundedWithinTheBodyGuardsLimit() {
    JsonObject spec = contract.published();
    List<String> unbounded = new ArrayList<>();
    JsonObject paths = spec.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (String method : paths.getJsonObject(path).fieldNames()) {
        Object operation = paths.getJsonObject(path).getValue(method);
        if (operation instanceof JsonObject op
            && op.getJsonObject("requestBody") != null
            && !op.getBoolean(ApiContract.RAW_BODY_EXTENSION, false)) {
          JsonObject content = op.getJsonObject("requestBody").getJsonObject("content");
          content
              .fieldNames()
              .forEach(
                  type ->
                      walk(
                          spec,
                          content.getJsonObject(type).getValue("schema"),
                          op.getString("operationId"),
                          new HashSet<>(),
                          unbounded));
        }
      }
    }
    assertThat(unbounded)
        .as("request arrays without maxItems (or above %d)", JsonBodyGuard.MAX_ENTRIES)
        .isEmpty();
  }

  private static void walk(
      JsonObject spec, Object node, String where, Set<String> seen, List<String> unbounded) {
    if (node instanceof JsonArray list) {
      list.forEach(item -> walk(spec, item, where, seen, unbounded));
      return;
    }
    if (!(node instanceof JsonObject schema)) {
      return;
    }
    String ref = schema.getString("$ref");
    if (ref != null && seen.add(ref)) {
      walk(
          spec,
          spec.getJsonObject("components")
              .getJsonObject("schemas")
              .getJsonObject(ref.substring(ref.lastIndexOf('/') + 1)),
          ref,
          seen,
          unbounded);
    }
    Object type = schema.getValue("type");
    boolean array =
        "array".equals(type) || (type instanceof JsonArray types && types.contains("array"));
    Integer max = schema.getInteger("maxItems");
    if (array && (max == null || max > JsonBodyGuard.MAX_ENTRIES)) {
      unbounded.add(where);
    }
    for (String key : List.of("items", "oneOf", "anyOf", "allOf", "additionalProperties")) {
      walk(spec, schema.getValue(key), where, seen, unbounded);
    }
    JsonObject properties = schema.getJsonObject("properties");
    if (properties != null) {
      properties
          .fieldNames()
          .forEach(
              name -> walk(spec, properties.getValue(name), where + "/" + name, seen, unbounded));
    }
  }
}
