package io.olmstead.controlplane.bench;

import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Load harness (not a test): p50/p99 of {@code GET /clusters} with a label selector over 10,000
 * clusters, and of {@code GET /subscriptions/{name}/status} with 1,000 subscriptions in the
 * database (the one asked for places on every {@code env=prod} cluster and has a status row from
 * each), with a few concurrent clients against a running control plane and embedded PostgreSQL in
 * this JVM.
 */
public final class ClusterListBench {
  private ClusterListBench() {}

  public static void main(String[] args) throws Exception {
    int clusters = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int requests = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    int clients = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    try (TestControlPlane cp = TestControlPlane.start(ClusterListBench.class)) {
      TestDatabase.execute(
          cp.database(),
          "INSERT INTO clusters (name, labels, status) SELECT 'cluster-' || i, "
              + "jsonb_build_object('env', (ARRAY['prod','dev','staging'])[1 + i % 3], 'region', (ARRAY['eu','us','ap'])"
              + "[1 + (i / 3) % 3], 'tier', (ARRAY['web','db','batch','cache'])[1 + i % 4], 'olmstead.io/team', 'team-' "
              + "|| (i % 20)) || CASE WHEN i % 10 = 0 THEN '{\"canary\":\"true\"}'::jsonb ELSE '{}'::jsonb END, "
              + "'connected' FROM generate_series(1, "
              + clusters
              + ") i");
      int subscriptions = args.length > 3 ? Integer.parseInt(args[3]) : 1_000;
      TestDatabase.execute(cp.database(), "INSERT INTO catalogs (name) VALUES ('bench')");
      TestDatabase.execute(
          cp.database(),
          "INSERT INTO subscriptions (name, catalog, package, channel, namespace, "
              + "placement_selector, version_kind, version_value, approval, created_by) SELECT 'sub-' || lpad(i::text, 4, '0'), "
              + "'bench', 'pkg-' || i, 'stable', 'ns-' || i, (ARRAY['env=prod','env=dev','tier=db'])[1 + i % 3], 'pin', "
              + "'1.0.' || (i % 5), 'Automatic', 'bench' FROM generate_series(1, "
              + subscriptions
              + ") i");
      // every cluster reports on three subscriptions; sub-0003 (env=prod) has a row from every prod
      // cluster
      TestDatabase.execute(
          cp.database(),
          "INSERT INTO subscription_status (subscription, cluster, installed_version, "
              + "phase, seq) SELECT 'sub-' || lpad(s::text, 4, '0'), c.name, '1.0.' || (c.n % 3), "
              + "(ARRAY['Succeeded','Succeeded','Succeeded','Installing','Failed'])[1 + c.n % 5], 1 FROM "
              + "(SELECT name, substring(name from 9)::int AS n FROM clusters) c, generate_series(1, 3) s "
              + "WHERE s <> 3 OR c.name IN (SELECT name FROM clusters WHERE labels->>'env' = 'prod')");
      TestDatabase.execute(cp.database(), "ANALYZE");
      for (String selector : List.of("env=prod,region in (eu,us),!canary", "env=prod,tier=db")) {
        String url =
            cp.baseUrl()
                + "/api/v1/clusters?limit=100&selector="
                + URLEncoder.encode(selector, StandardCharsets.UTF_8);
        run(url, requests / 10, clients);
        List<Long> micros = run(url, requests, clients);
        Collections.sort(micros);
        System.out.printf(
            "GET /clusters?limit=100&selector=%s over %d clusters, %d requests, %d clients: "
                + "p50 %.1f ms, p99 %.1f ms%n",
            selector,
            clusters,
            requests,
            clients,
            micros.get(micros.size() / 2) / 1000.0,
            micros.get((int) (micros.size() * 0.99)) / 1000.0);
      }
      String status = cp.baseUrl() + "/api/v1/subscriptions/sub-0003/status?limit=100";
      run(status, requests / 10, clients);
      List<Long> micros = run(status, requests, clients);
      Collections.sort(micros);
      System.out.printf(
          "GET /subscriptions/sub-0003/status?limit=100 (%d subscriptions, %d clusters), %d requests, "
              + "%d clients: p50 %.1f ms, p99 %.1f ms%n",
          subscriptions,
          clusters,
          requests,
          clients,
          micros.get(micros.size() / 2) / 1000.0,
          micros.get((int) (micros.size() * 0.99)) / 1000.0);
    }
  }

  private static List<Long> run(String url, int requests, int clients) throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
            .build();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<List<Long>>> futures = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      futures.add(
          pool.submit(
              () -> {
                List<Long> times = new ArrayList<>();
                for (int i = 0; i < requests / clients; i++) {
                  long start = System.nanoTime();
                  HttpResponse<String> response =
                      http.send(request, HttpResponse.BodyHandlers.ofString());
                  if (response.statusCode() != 200) {
                    throw new IllegalStateException(
                        "status " + response.statusCode() + ": " + response.body());
                  }
                  times.add((System.nanoTime() - start) / 1000);
                }
                return times;
              }));
    }
    List<Long> all = new ArrayList<>();
    for (Future<List<Long>> future : futures) {
      all.addAll(future.get());
    }
    pool.shutdown();
    return all;
  }
}
