package io.olmstead.controlplane.hypershift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.hypershift.pool.PoolFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A control plane starting beside HostedClusters whose kubeconfig secrets exist enrolls them as
 * soon as it has listed their namespace's Secrets, without first reporting them as lacking a
 * kubeconfig (the Secret informer of a namespace starts when its first HostedCluster is seen, so
 * its cache is empty for a moment), and without waiting for a resync.
 */
class WatcherStartIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;

  @Test
  void hostedClustersPresentAtStartAreEnrolledWithoutAFalseNoKubeconfigDecisionOrAResync()
      throws Exception {
    KubernetesMockServer server = PoolFixtures.crudServer();
    KubernetesClient management = server.createClient();
    TestControlPlane cp = null;
    try {
      PoolFixtures.prepareManagement(management);
      for (String name : new String[] {"one", "two", "three"}) {
        PoolFixtures.hostedCluster(management, name, null, "https://guest.invalid:6443");
      }
      Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
      Files.writeString(kubeconfig, PoolFixtures.kubeconfig(management.getMasterUrl().toString()));
      // resync 10 minutes: only the Secrets' listing can bring the HostedClusters back within the
      // test
      cp =
          TestControlPlane.start(
              TestDatabase.create(WatcherStartIT.class),
              Map.of(
                  HypershiftSettings.MANAGEMENT_KUBECONFIG,
                  kubeconfig.toString(),
                  HypershiftSettings.RESYNC_SECONDS,
                  "600"));
      ApiClient api = new ApiClient(cp);
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () ->
                  api.get("/api/v1/clusters/clusters-one", ADMIN).status() == 200
                      && api.get("/api/v1/clusters/clusters-two", ADMIN).status() == 200
                      && api.get("/api/v1/clusters/clusters-three", ADMIN).status() == 200);

      assertThat(
              api.get("/metrics", ADMIN)
                  .body()
                  .lines()
                  .filter(
                      l ->
                          l.startsWith("olmstead_hypershift_decisions_total")
                              && l.contains("no-kubeconfig")))
          .as("no HostedCluster was reported without a kubeconfig")
          .isEmpty();
    } finally {
      if (cp != null) {
        cp.close();
      }
      management.close();
      server.destroy();
    }
  }
}
