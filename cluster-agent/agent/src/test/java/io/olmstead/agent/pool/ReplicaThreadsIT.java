package io.olmstead.agent.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.reconcile.ControlPlaneCatalogs;
import io.olmstead.agent.reconcile.GuestReachability;
import io.olmstead.agent.reconcile.ReconcileThreads;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.WebSocketClient;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A pool replica's reconcile threads do not grow with the clusters it serves: 20 hosted agents (one
 * mock guest API, a control plane that is not there, so channels keep retrying) start their
 * reconcile loops on the replica's shared threads, and the threads that run passes, resyncs,
 * delayed re-queues and preflights stay those few.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class ReplicaThreadsIT {
  private static final Pattern RECONCILE_THREAD =
      Pattern.compile(".*(reconcile|resync|preflight|delays).*");
  private static final int SHARED = 4;
  KubernetesMockServer server;

  @Test
  void servingTwentyClustersUsesTheReplicasFewReconcileThreads() {
    Vertx vertx = Vertx.vertx();
    HttpClient http = vertx.createHttpClient();
    WebSocketClient ws = vertx.createWebSocketClient();
    GuestClients guests = new GuestClients(2);
    ReconcileThreads reconcile = ReconcileThreads.create("pool", SHARED);
    URI nowhere =
        URI.create("http://127.0.0.1:9"); // discard port: nothing listens, the channels retry
    HostedAgent.Shared shared =
        new HostedAgent.Shared(
            nowhere,
            vertx,
            http,
            ws,
            new ControlPlaneCatalogs(nowhere, CredentialStorage.inMemory()),
            guests,
            new ReconcilerOptions(1, Duration.ofMinutes(5), true),
            guests.events(),
            guests.starter(),
            reconcile,
            InventoryReporter.INTERVAL);
    String kubeconfig = kubeconfig(server.createClient().getMasterUrl().toString());
    List<HostedAgent> agents = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        HostedTarget target =
            new HostedTarget("clusters-hc-" + i, "clusters", "hc-" + i, "clusters-hc-" + i);
        agents.add(
            HostedAgent.start(
                shared,
                target,
                "olm_agent_test-" + i,
                new GuestKubeconfigs.Access(
                    target.controlPlaneNamespace(), GuestKubeconfigs.SERVICE_NETWORK, kubeconfig),
                new GuestReachability(target.cluster())));
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> agents.stream().allMatch(HostedAgent::reconciling));
      List<String> names =
          Thread.getAllStackTraces().keySet().stream()
              .filter(Thread::isAlive)
              .map(Thread::getName)
              .filter(n -> RECONCILE_THREAD.matcher(n).matches())
              .sorted()
              .toList();
      assertThat(names)
          .as("reconcile threads with 20 clusters served")
          .hasSizeLessThanOrEqualTo(SHARED + 1)
          .allMatch(n -> n.startsWith("pool-reconcile-"));
    } finally {
      agents.forEach(HostedAgent::stop);
      reconcile.close();
      guests.close();
      vertx.close();
    }
  }

  private static String kubeconfig(String server) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: guest\n  cluster:\n    server: "
        + server
        + "\ncontexts:\n- name: guest\n  context:\n    cluster: guest\n    user: admin\ncurrent-context: guest\n"
        + "users:\n- name: admin\n  user:\n    token: not-checked\n";
  }
}
