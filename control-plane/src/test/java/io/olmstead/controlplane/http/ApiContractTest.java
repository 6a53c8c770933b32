package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.auth.Role;
import io.vertx.core.Vertx;
import io.vertx.openapi.contract.OpenAPIContract;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ApiContractTest {
  private final ApiContract contract = ApiContract.load();

  @Test
  void everyOperationUnderApiV1HasAnOperationIdAndApiTokenOperationsHaveARole() {
    assertThat(contract.basePath()).isEqualTo("/api/v1");
    assertThat(contract.policies()).isNotEmpty();
    contract.policies().values().forEach(policy -> {
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
    assertThat(upload.mediaTypes()).contains("application/x-ndjson", "application/yaml", "application/gzip",
        "application/json");
    OperationPolicy patch = contract.policy("patchCluster").orElseThrow();
    assertThat(patch.mediaTypes()).containsExactly("application/merge-patch+json");
    assertThat(patch.jsonBody()).isTrue();
    assertThat(contract.policy("putSubscription").flatMap(OperationPolicy::role)).contains(Role.OPERATOR);
    assertThat(contract.policy("listClusters").flatMap(OperationPolicy::role)).contains(Role.VIEWER);
    OperationPolicy enroll = contract.policy("enrollAgent").orElseThrow();
    assertThat(enroll.apiTokenAuth()).isFalse();
    assertThat(enroll.role()).isEqualTo(Optional.empty());
  }

  @Test
  void theAdaptedContractLoadsIntoVertxOpenApi() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      OpenAPIContract openApi = contract.toOpenApi(vertx).toCompletionStage().toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      assertThat(openApi.operations()).hasSize(contract.policies().size());
      assertThat(openApi.findOperation("/api/v1/clusters/prod-1", io.vertx.core.http.HttpMethod.PATCH)
          .getOperationId()).isEqualTo("patchCluster");
      assertThat(openApi.operation("uploadCatalogRevision").getRequestBody()).isNull();
    } finally {
      vertx.close();
    }
  }
}
