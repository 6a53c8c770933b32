package io.olmstead.agent.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.reconcile.ControlPlaneCatalogs;
import io.olmstead.agent.reconcile.ReconcileThreads;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The rotation check reads every served cluster's kubeconfig Secret; against a slow management API
 * one check lasts longer than the check period. Those reads must not run on the ordering thread:
 * there a release (or an assignment) waited for the check under way, and before that for every
 * check piled up behind it (over 90 s).
 */
@EnableKubernetesMockClient(crud = true, https = false)
class SlowRotationCheckIT {
  private static final int SERVED = 6;
  KubernetesMockServer server;

  @Test
  void aReleaseDoesNotWaitForTheSecretReadsOfACheckUnderWay() throws Exception {
    String kubeconfig =
        ReplicaThreadsKubeconfig.of(server.createClient().getMasterUrl().toString());
    String secretJson =
        "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\",\"namespace\":\"n\"},"
            + "\"data\":{\"kubeconfig\":\""
            + Base64.getEncoder().encodeToString(kubeconfig.getBytes(StandardCharsets.UTF_8))
            + "\"}}";
    // while the gate is shut, every Secret read is held there: the check under way stalls for as
    // long as the test likes
    AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(0));
    AtomicBoolean readHeld = new AtomicBoolean();
    HttpServer slow =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    slow.setExecutor(Executors.newFixedThreadPool(16));
    slow.createContext(
        "/",
        exchange -> {
          CountDownLatch shut = gate.get();
          if (shut.getCount() > 0) {
            readHeld.set(true);
            try {
              shut.await(); // a management API that does not answer until the gate opens
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          byte[] body = secretJson.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    slow.start();
    Vertx vertx = Vertx.vertx();
    GuestClients guests = new GuestClients(2);
    ReconcileThreads reconcile = ReconcileThreads.create("pool", 2);
    URI nowhere = URI.create("http://127.0.0.1:9"); // nothing listens: the channels retry
    HostedAgent.Shared shared =
        new HostedAgent.Shared(
            nowhere,
            vertx,
            vertx.createHttpClient(),
            vertx.createWebSocketClient(),
            new ControlPlaneCatalogs(nowhere, CredentialStorage.inMemory()),
            guests,
            new ReconcilerOptions(1, Duration.ofMinutes(5), true),
            guests.events(),
            guests.starter(),
            reconcile,
            InventoryReporter.INTERVAL);
    KubernetesClient management =
        guests.build(
            new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + slow.getAddress().getPort())
                .withRequestRetryBackoffLimit(0)
                .build());
    // a check every 2 s, each lasting SERVED seconds
    HostedPool pool =
        new HostedPool(shared, new GuestKubeconfigs(management, guests), Duration.ofSeconds(2));
    try {
      for (int i = 0; i < SERVED; i++) {
        pool.assign(
            new HostedTarget("clusters-hc-" + i, "clusters", "hc-" + i, "clusters-hc-" + i),
            "olm_agent_t-" + i);
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> pool.served().size() == SERVED);
      CountDownLatch shut = new CountDownLatch(1);
      gate.set(shut);
      // the next check (one every 2 s) reads a Secret and stays stalled on it
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(readHeld::get);

      pool.release("clusters-hc-0");
      // the release completes while the check under way cannot: it does not wait for the check's
      // reads
      await().atMost(Duration.ofSeconds(60)).until(() -> !pool.served().contains("clusters-hc-0"));
      assertThat(shut.getCount()).as("the check's read is still held").isEqualTo(1);
      assertThat(pool.served()).hasSize(SERVED - 1);
    } finally {
      gate.get().countDown();
      pool.close();
      reconcile.close();
      management.close();
      guests.close();
      vertx.close();
      slow.stop(0);
    }
  }

  /** A kubeconfig for the mock guest API (its token is not checked). */
  private static final class ReplicaThreadsKubeconfig {
    static String of(String server) {
      return "apiVersion: v1\nkind: Config\nclusters:\n- name: guest\n  cluster:\n    server: "
          + server
          + "\ncontexts:\n- name: guest\n  context:\n    cluster: guest\n    user: admin\ncurrent-context: guest\n"
          + "users:\n- name: admin\n  user:\n    token: not-checked\n";
    }
  }
}
