package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The pool ITs' control plane with dev mode's demo catalog subscribed (the rest of their fixtures:
 * PoolFixtures).
 */
final class DemoPoolControlPlane {
  private DemoPoolControlPlane() {}

  /**
   * A control plane (real PostgreSQL) whose watcher reads {@code management} (resync 2 s; pool
   * rounds every {@code assignSeconds}), with the demo catalog loaded and {@code demo-operator}
   * (0.1.0, namespace {@code demo-operator}) subscribed on every hosted cluster.
   */
  static TestControlPlane start(Class<?> test, KubernetesClient management, String assignSeconds)
      throws Exception {
    Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
    Files.writeString(kubeconfig, PoolFixtures.kubeconfig(management.getMasterUrl().toString()));
    TestControlPlane cp =
        TestControlPlane.start(
            TestDatabase.create(test),
            Map.of(
                HypershiftSettings.MANAGEMENT_KUBECONFIG,
                kubeconfig.toString(),
                HypershiftSettings.RESYNC_SECONDS,
                "2",
                PoolSettings.ASSIGN_SECONDS,
                assignSeconds));
    assertThat(
            DemoCatalog.ensureLoaded(cp.controlPlane().vertx(), cp.controlPlane().pool())
                .toCompletionStage()
                .toCompletableFuture()
                .get(1, TimeUnit.MINUTES))
        .isTrue();
    Response subscribed =
        new ApiClient(cp)
            .json(
                "PUT",
                "/api/v1/subscriptions/demo-operator",
                TestControlPlane.ADMIN_TOKEN,
                new JsonObject()
                    .put("catalog", DemoCatalog.NAME)
                    .put("package", "olmstead-demo-operator")
                    .put("channel", "stable")
                    .put("namespace", "demo-operator")
                    .put(
                        "placement",
                        new JsonObject().put("selector", "olmstead.io/source=hypershift"))
                    .put("version", new JsonObject().put("pin", "0.1.0"))
                    .put("approval", "Automatic"));
    assertThat(subscribed.status()).as(subscribed.body()).isEqualTo(201);
    return cp;
  }
}
