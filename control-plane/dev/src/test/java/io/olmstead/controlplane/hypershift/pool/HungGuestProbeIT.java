package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.pool.PoolConfig;
import io.olmstead.agent.pool.PoolReplica;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Finding a served cluster's kubeconfig probes its guest API, which may hang (an address that
 * accepts and never answers): those probes run beside each other, off the replica's ordering
 * thread, so the clusters whose guests answer are served while the hung probes still wait out their
 * timeout (5 s), and the hung ones are then served through their {@code <name>-admin-kubeconfig}.
 * Before, the probes ran one after another on the ordering thread: a good cluster handed over after
 * a hung one waited for it.
 */
class HungGuestProbeIT {
  private static final int HUNG = 6;
  private static final int GOOD = 4;

  @Test
  void clustersWhoseGuestsAnswerAreServedWhileTheProbesOfHungGuestsStillWait() throws Exception {
    List<Socket> held = new CopyOnWriteArrayList<>();
    KubernetesMockServer managementServer = PoolFixtures.crudServer();
    KubernetesMockServer guestServer = PoolFixtures.crudServer();
    KubernetesClient management = managementServer.createClient();
    TestControlPlane cp = null;
    PoolReplica replica = null;
    try (ServerSocket tarpit = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread accepting =
          new Thread(
              () -> {
                // accepts and never answers; bounded: a few dozen probes at most
                while (held.size() < 100 && !tarpit.isClosed()) {
                  try {
                    held.add(tarpit.accept());
                  } catch (IOException e) {
                    return;
                  }
                }
              },
              "tarpit");
      accepting.setDaemon(true);
      accepting.start();
      PoolFixtures.prepareManagement(management);
      String guest = guestServer.createClient().getMasterUrl().toString();
      cp = DemoPoolControlPlane.start(HungGuestProbeIT.class, management, "2");
      List<String> hung = new ArrayList<>();
      List<String> good = new ArrayList<>();
      for (int i = 0; i < HUNG; i++) {
        // named to sort first: clusters are handed over in name order, so the hung ones are asked
        // for first
        PoolFixtures.hostedCluster(
            management, "a-hung-" + i, "http://127.0.0.1:" + tarpit.getLocalPort(), guest);
        hung.add("clusters-a-hung-" + i);
      }
      for (int i = 0; i < GOOD; i++) {
        PoolFixtures.hostedCluster(management, "good-" + i, guest, guest);
        good.add("clusters-good-" + i);
      }
      TestControlPlane started = cp;
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> enrolled(started) == HUNG + GOOD);

      replica =
          PoolReplica.start(
              PoolConfig.fromMap(
                  Map.of(
                      PoolConfig.CONTROL_PLANE_URL,
                      cp.baseUrl(),
                      PoolConfig.POOL_TOKEN,
                      PoolFixtures.poolToken(cp),
                      PoolConfig.REPLICA,
                      "pool-0")),
              management);
      PoolReplica serving = replica;
      await()
          .atMost(Duration.ofMinutes(1))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> serving.served().containsAll(good));
      Set<String> servedThen = serving.served();

      assertThat(servedThen)
          .as("served when the last good cluster was: no hung probe had ended yet")
          .doesNotContainAnyElementsOf(hung);
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> serving.served().containsAll(hung));
    } finally {
      if (replica != null) {
        replica.close();
      }
      if (cp != null) {
        cp.close();
      }
      for (Socket s : held) {
        s.close();
      }
      management.close();
      managementServer.destroy();
      guestServer.destroy();
    }
  }

  private static int enrolled(TestControlPlane cp) throws Exception {
    return cp.controlPlane()
        .pool()
        .query("SELECT count(*) FROM hosted_clusters WHERE retired_at IS NULL")
        .execute()
        .map(rows -> rows.iterator().next().getInteger(0))
        .toCompletionStage()
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }
}
