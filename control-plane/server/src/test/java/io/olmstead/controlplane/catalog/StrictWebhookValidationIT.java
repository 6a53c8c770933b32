package io.olmstead.controlplane.catalog;

import static io.olmstead.controlplane.catalog.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A strict catalog upload refuses a bundle the agent could not plan (its webhooks), naming bundle
 * and field.
 */
class StrictWebhookValidationIT {
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(StrictWebhookValidationIT.class);
    api = new ApiClient(cp.baseUrl(), TestControlPlane.ADMIN_TOKEN);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static HttpResponse<String> upload(String catalog, String query, String content) {
    return api.post(
        "/catalogs/" + catalog + "/revisions" + query,
        content.getBytes(StandardCharsets.UTF_8),
        "application/x-ndjson");
  }

  @Test
  void aWebhookNamingAnAbsentDeploymentIs422NamingTheBundleAndTheFieldAndStoresNothing() {
    assertThat(api.putJson("/catalogs/hooks", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);
    Map<String, Long> before = ApiClient.counts(cp.database());

    for (String query : new String[] {"?validation=strict", ""}) {
      HttpResponse<String> refused =
          upload("hooks", query, CatalogFixtures.webhookNdjson("etcd-backup-operator"));

      assertThat(refused.statusCode()).as(query + ": " + refused.body()).isEqualTo(422);
      assertThat(refused.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
      assertThat(json(refused).getString("code")).isEqualTo("validation-failed");
      JsonObject error = json(refused).getJsonArray("errors").getJsonObject(0);
      assertThat(error.getString("bundle")).isEqualTo("etcdoperator.v0.9.4");
      assertThat(error.getString("field"))
          .isEqualTo("bundles[etcdoperator.v0.9.4].csv.spec.webhookdefinitions[2].deploymentName");
      assertThat(error.getString("message"))
          .contains("\"etcd-backup-operator\" names no deployment");
    }
    assertThat(ApiClient.counts(cp.database())).isEqualTo(before);
    assertThat(json(api.get("/catalogs/hooks")).getInteger("currentRevision")).isNull();

    HttpResponse<String> fixed =
        upload("hooks", "?validation=strict", CatalogFixtures.webhookNdjson("etcd-operator"));
    assertThat(fixed.statusCode()).as(fixed.body()).isEqualTo(201);
  }

  @Test
  void aLenientUploadStoresTheCatalogWithTheWebhookProblemAsAWarning() {
    assertThat(api.putJson("/catalogs/hooks-lenient", new JsonObject(), Map.of()).statusCode())
        .isEqualTo(201);

    HttpResponse<String> stored =
        upload(
            "hooks-lenient",
            "?validation=lenient",
            CatalogFixtures.webhookNdjson("etcd-backup-operator"));

    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201);
    assertThat(stored.body()).contains("names no deployment");
  }
}
