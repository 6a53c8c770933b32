package io.olmstead.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.registry.TestRegistry;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Maturity reports of bundles a catalog names only by image, on a real registry: metadata rules
 * only until the image is unpacked, then the object rules on the image's objects (etcd 0.9.4 breaks
 * the first four rules of issue 15).
 */
class ImageMaturityIT {
  static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  static final String ETCD =
      "/api/v1/catalogs/images/packages/etcd/bundles/etcdoperator.v0.9.4/maturity";
  static TestRegistry registry;
  static TestControlPlane cp;
  static ApiClient api;
  static Map<String, String> images;

  @BeforeAll
  static void start() throws Exception {
    registry = TestRegistry.start();
    cp =
        TestControlPlane.start(
            TestDatabase.create(ImageMaturityIT.class),
            Map.of(
                RegistrySettings.INSECURE, registry.host(), RegistrySettings.SWEEP_SECONDS, "1"));
    api = new ApiClient(cp);
    images = ImageInstallEndToEndIT.etcdImagesCatalog(registry, api, "images");
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
    if (registry != null) {
      registry.close();
    }
  }

  private static List<String> rules(JsonObject report) {
    return report.getJsonArray("findings").stream()
        .map(o -> ((JsonObject) o).getString("rule"))
        .toList();
  }

  @Test
  void anImageBundlesReportChecksTheUnpackedObjectsOnceTheImageIsUnpacked() {
    Response before = api.get(ETCD, ADMIN);
    assertThat(before.status()).as(before.body()).isEqualTo(200);
    assertThat(rules(before.json())).doesNotContain("security/rbac-wildcard");
    assertThat(before.json().getJsonArray("notChecked").encode())
        .contains("security/rbac-wildcard");

    String image = images.get("etcdoperator.v0.9.4");
    String digest = image.substring(image.indexOf('@') + 1);
    assertThat(
            api.json("POST", "/api/v1/bundles", ADMIN, new JsonObject().put("image", image))
                .status())
        .isEqualTo(202);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> api.get("/api/v1/bundles/" + digest, ADMIN).json().getString("state"),
            "Unpacked"::equals);

    JsonObject report = api.get(ETCD, ADMIN).json();
    assertThat(report.getString("imageDigest")).isEqualTo(digest);
    assertThat(rules(report))
        .contains(
            "security/rbac-wildcard",
            "security/run-as-non-root",
            "robustness/container-resources",
            "consumability/crd-exposes-resources");
    assertThat(report.getJsonArray("notChecked").encode()).doesNotContain("security/rbac-wildcard");
    assertThat(report.getString("evidencedCapability")).isNotNull();
    // stored: asked again, the same report
    assertThat(api.get(ETCD, ADMIN).json()).isEqualTo(report);

    // the catalog summary counts the image's findings for the head it heads
    JsonObject summary = api.get("/api/v1/catalogs/images/maturity", ADMIN).json();
    JsonArray heads = summary.getJsonArray("items").getJsonObject(0).getJsonArray("heads");
    assertThat(
            heads.stream()
                .map(o -> (JsonObject) o)
                .filter(h -> h.getString("bundle").equals("etcdoperator.v0.9.4"))
                .findFirst()
                .orElseThrow()
                .getJsonObject("bySeverity")
                .getInteger("error"))
        .isGreaterThanOrEqualTo(4);
  }
}
