package io.olmstead.agent.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.channel.CredentialStorage;
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
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The rotation check reads every served cluster's kubeconfig Secret on the ordering thread; against a slow management
 * API one check lasts longer than the check period. Checks must not pile up behind each other on that thread (one
 * is queued at most), or a release (or an assignment) waits behind every check queued meanwhile, longer and longer.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class SlowRotationCheckIT {
  private static final int SERVED = 4;
  private static final long SECRET_DELAY_MILLIS = 1000;
  KubernetesMockServer server;

  @Test
  void aReleaseWaitsForAtMostTheCheckUnderWayNotForChecksPiledUpBehindIt() throws Exception {
    String kubeconfig = ReplicaThreadsKubeconfig.of(server.createClient().getMasterUrl().toString());
    String secretJson = "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\",\"namespace\":\"n\"},"
        + "\"data\":{\"kubeconfig\":\"" + Base64.getEncoder().encodeToString(kubeconfig.getBytes(StandardCharsets.UTF_8))
        + "\"}}";
    AtomicInteger reads = new AtomicInteger();
    HttpServer slow = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    slow.setExecutor(Executors.newFixedThreadPool(16));
    slow.createContext("/", exchange -> {
      reads.incrementAndGet();
      try {
        Thread.sleep(SECRET_DELAY_MILLIS); // a management API answering slowly
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
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
    HostedAgent.Shared shared = new HostedAgent.Shared(nowhere, vertx, vertx.createHttpClient(),
        vertx.createWebSocketClient(), new ControlPlaneCatalogs(nowhere, CredentialStorage.inMemory()), guests,
        new ReconcilerOptions(1, Duration.ofMinutes(5), true), guests.events(), guests.starter(), reconcile);
    KubernetesClient management = guests.build(new ConfigBuilder()
        .withMasterUrl("http://127.0.0.1:" + slow.getAddress().getPort()).withRequestRetryBackoffLimit(0).build());
    // a check every 200 ms, each lasting SERVED seconds: without a bound, five checks queue up per second
    HostedPool pool = new HostedPool(shared, new GuestKubeconfigs(management, guests), Duration.ofMillis(200));
    try {
      for (int i = 0; i < SERVED; i++) {
        pool.assign(new HostedTarget("clusters-hc-" + i, "clusters", "hc-" + i, "clusters-hc-" + i), "olm_agent_t-" + i);
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> pool.served().size() == SERVED);
      Thread.sleep(8_000); // checks run (and, unbounded, pile up) meanwhile

      long start = System.nanoTime();
      pool.release("clusters-hc-0");
      await().atMost(Duration.ofSeconds(90)).until(() -> !pool.served().contains("clusters-hc-0"));
      Duration waited = Duration.ofNanos(System.nanoTime() - start);

      assertThat(waited).as("a release behind the check under way (%d s each), not behind a backlog of checks",
          SERVED * SECRET_DELAY_MILLIS / 1000).isLessThan(Duration.ofSeconds(3L * SERVED));
    } finally {
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
      return "apiVersion: v1\nkind: Config\nclusters:\n- name: guest\n  cluster:\n    server: " + server
          + "\ncontexts:\n- name: guest\n  context:\n    cluster: guest\n    user: admin\ncurrent-context: guest\n"
          + "users:\n- name: admin\n  user:\n    token: not-checked\n";
    }
  }
}
