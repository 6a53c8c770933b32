package io.olmstead.agent.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.reconcile.ControlPlaneCatalogs;
import io.olmstead.agent.reconcile.ReconcileThreads;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.Limits;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.ProtocolVersions;
import io.olmstead.apispec.protocol.Welcome;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Hosted clusters served by a pool report their inventory as a {@code run} agent does: each served
 * cluster's channel session (its own credential) carries an {@code inventory} message with what its
 * guest runs, collected on the replica's few shared inventory threads (none per cluster). The
 * control plane is a stand-in that welcomes each channel and keeps what it receives; the management
 * and guest APIs are one fabric8 mock server.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class PoolInventoryIT {
  private static final int SERVED = 3;
  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  void everyServedClusterReportsItsInventoryOnTheReplicasSharedThreads() throws Exception {
    // what the guest runs: an operator the agent installed (its OperatorCondition record)
    ResourceOperator resources = new ResourceOperator(client, new ResourceKinds());
    resources.apply(OperatorConditions.crd());
    ObjectNode installed =
        OperatorConditions.forBundle(
            "db-operator.v1.2.0",
            "ops",
            ManagedLabels.of("db-operator", "db-operator.v1.2.0", "ops"),
            Map.of(
                ManagedLabels.SUBSCRIPTION_ANNOTATION,
                "db-operator",
                ManagedLabels.PHASE_ANNOTATION,
                "Succeeded",
                "olmstead.io/package",
                "db-operator",
                "olmstead.io/version",
                "1.2.0",
                "olmstead.io/crds",
                ""),
            List.of(),
            List.of());
    resources.apply(installed);
    String kubeconfig = kubeconfig(client.getMasterUrl().toString());
    Map<String, String> clusterOfCredential = new ConcurrentHashMap<>();
    for (int i = 0; i < SERVED; i++) {
      clusterOfCredential.put("olm_agent_inv-" + i, "clusters-hc-" + i);
      client
          .secrets()
          .inNamespace("clusters-hc-" + i)
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName(GuestKubeconfigs.SERVICE_NETWORK)
                  .withNamespace("clusters-hc-" + i)
                  .endMetadata()
                  .addToData(
                      GuestKubeconfigs.KEY,
                      Base64.getEncoder()
                          .encodeToString(kubeconfig.getBytes(StandardCharsets.UTF_8)))
                  .build())
          .create();
    }

    Vertx vertx = Vertx.vertx();
    Map<String, Inventory> received = new ConcurrentHashMap<>();
    HttpServer controlPlane = standIn(vertx, clusterOfCredential, received);
    URI url = URI.create("http://127.0.0.1:" + controlPlane.actualPort());
    GuestClients guests = new GuestClients(2);
    ReconcileThreads reconcile = ReconcileThreads.create("pool", 2);
    HostedAgent.Shared shared =
        new HostedAgent.Shared(
            url,
            vertx,
            vertx.createHttpClient(),
            vertx.createWebSocketClient(),
            new ControlPlaneCatalogs(url, CredentialStorage.inMemory()),
            guests,
            new ReconcilerOptions(1, Duration.ofMinutes(5), true),
            guests.events(),
            guests.starter(),
            reconcile,
            Duration.ofSeconds(1));
    HostedPool pool =
        new HostedPool(shared, new GuestKubeconfigs(client, guests), Duration.ofMinutes(5));
    try {
      for (int i = 0; i < SERVED; i++) {
        pool.assign(
            new HostedTarget("clusters-hc-" + i, "clusters", "hc-" + i, "clusters-hc-" + i),
            "olm_agent_inv-" + i);
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> received.size() == SERVED);
      for (int i = 0; i < SERVED; i++) {
        // keyed by the credential the channel session presented: the report came on that cluster's
        // own session
        Inventory inventory = received.get("clusters-hc-" + i);
        assertThat(inventory.operators())
            .extracting(Inventory.Operator::packageName, Inventory.Operator::version)
            .containsExactly(tuple("db-operator", "1.2.0"));
      }
      List<String> threads =
          Thread.getAllStackTraces().keySet().stream()
              .filter(Thread::isAlive)
              .map(Thread::getName)
              .filter(n -> n.startsWith("guest-inventory-") || n.startsWith("inventory-clusters-"))
              .sorted()
              .toList();
      assertThat(threads)
          .as("inventory threads with %d clusters served", SERVED)
          .isNotEmpty()
          .hasSizeLessThanOrEqualTo(GuestClients.INVENTORY_THREADS)
          .allMatch(n -> n.startsWith("guest-inventory-"));
    } finally {
      pool.close();
      reconcile.close();
      guests.close();
      vertx.close();
    }
  }

  /**
   * A control plane's agent endpoint, no more: the bearer credential names the cluster, {@code
   * hello} is answered with {@code welcome}, and each cluster's newest {@code inventory} is kept.
   */
  private static HttpServer standIn(
      Vertx vertx, Map<String, String> clusterOfCredential, Map<String, Inventory> received)
      throws Exception {
    return vertx
        .createHttpServer()
        .webSocketHandler(
            ws -> {
              String authorization = String.valueOf(ws.headers().get("Authorization"));
              String cluster = clusterOfCredential.get(authorization.replaceFirst("^Bearer ", ""));
              if (!"/api/v1/agent/connect".equals(ws.path()) || cluster == null) {
                ws.reject(401);
                return;
              }
              ws.textMessageHandler(
                  text -> {
                    AgentMessage message;
                    try {
                      message = ProtocolCodec.decode(text);
                    } catch (Exception e) {
                      ws.close((short) 1008, "bad message");
                      return;
                    }
                    if (message instanceof Hello) {
                      ws.writeTextMessage(
                          ProtocolCodec.encode(
                              new Welcome(
                                  ProtocolVersions.CURRENT,
                                  null,
                                  cluster,
                                  "s-" + cluster,
                                  30,
                                  new Limits(1 << 20, 4 << 20, 100, 200),
                                  0)));
                    } else if (message instanceof Inventory inventory) {
                      received.put(cluster, inventory);
                    }
                  });
            })
        .listen(0, "127.0.0.1")
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  private static String kubeconfig(String server) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: guest\n  cluster:\n    server: "
        + server
        + "\ncontexts:\n- name: guest\n  context:\n    cluster: guest\n    user: admin\ncurrent-context: guest\n"
        + "users:\n- name: admin\n  user:\n    token: not-checked\n";
  }
}
