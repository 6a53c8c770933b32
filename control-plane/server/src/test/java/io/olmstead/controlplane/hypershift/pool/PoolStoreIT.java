package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Handovers on the real database: a batch records the replica, issues one live credential per
 * cluster (revoking the former holder's), audits each cluster, and leaves out clusters retired or
 * unknown.
 */
class PoolStoreIT {
  private static final int FLEET = 600;
  private static TestControlPlane cp;
  private static Pool pool;
  private static PoolStore store;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(PoolStoreIT.class);
    pool = cp.controlPlane().pool();
    store = new PoolStore(pool);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels) SELECT 'h-' || lpad(i::text, 3, '0'), "
            + "'{\"olmstead.io/source\":\"hypershift\"}'::jsonb FROM generate_series(0, "
            + (FLEET - 1)
            + ") i");
    TestDatabase.execute(
        cp.database(), "INSERT INTO clusters (name, status) VALUES ('h-retired', 'retired')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO hosted_clusters (cluster_id, cluster_name, cluster, namespace, "
            + "name) SELECT 'id-' || name, name, name, 'clusters', name FROM clusters WHERE name LIKE 'h-%'");
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  @Test
  void aBatchIssuesOneLiveCredentialPerClusterAuditsEachAndSkipsRetiredAndUnknownOnes()
      throws Exception {
    Map<String, String> credentials =
        await(store.handOver(List.of("h-001", "h-retired", "h-002", "nowhere"), "pool-a"));

    assertThat(credentials).containsOnlyKeys("h-001", "h-002");
    assertThat(credentials.get("h-001")).isNotEqualTo(credentials.get("h-002"));
    for (Map.Entry<String, String> e : credentials.entrySet()) {
      assertThat(liveCredentialIs(e.getKey(), e.getValue())).as(e.getKey()).isTrue();
      assertThat(single("SELECT member FROM pool_assignments WHERE cluster = $1", e.getKey()))
          .isEqualTo("pool-a");
      assertThat(
              single(
                  "SELECT count(*)::text FROM audit_log WHERE action = 'pool.handover' AND resource = $1 "
                      + "AND actor = 'pool:pool-a'",
                  "clusters/" + e.getKey()))
          .isEqualTo("1");
    }
    assertThat(
            single("SELECT count(*)::text FROM pool_assignments WHERE cluster = $1", "h-retired"))
        .isEqualTo("0");
    assertThat(
            single(
                "SELECT count(*)::text FROM audit_log WHERE resource = $1", "clusters/h-retired"))
        .isEqualTo("0");
  }

  @Test
  void handingOverAgainRevokesTheFormerHoldersCredential() throws Exception {
    String first = await(store.handOver(List.of("h-010"), "pool-a")).get("h-010");
    String second = await(store.handOver(List.of("h-010"), "pool-b")).get("h-010");

    assertThat(liveCredentialIs("h-010", first)).isFalse();
    assertThat(liveCredentialIs("h-010", second)).isTrue();
    assertThat(single("SELECT member FROM pool_assignments WHERE cluster = $1", "h-010"))
        .isEqualTo("pool-b");
  }

  @Test
  void aWholeFleetInOneBatchIsHandedOverWithADistinctCredentialEach() throws Exception {
    List<String> all = new ArrayList<>();
    for (int i = 100; i < FLEET; i++) {
      all.add(String.format("h-%03d", i));
    }
    Map<String, String> credentials = await(store.handOver(all, "pool-c"));

    assertThat(credentials.keySet()).containsExactlyElementsOf(all);
    assertThat(credentials.values().stream().distinct().count()).isEqualTo(all.size());
    assertThat(single("SELECT count(*)::text FROM pool_assignments WHERE member = $1", "pool-c"))
        .isEqualTo(String.valueOf(all.size()));
    assertThat(
            single(
                "SELECT count(*)::text FROM cluster_credentials c JOIN pool_assignments a "
                    + "ON a.cluster = c.cluster WHERE a.member = $1 AND c.revoked_at IS NULL",
                "pool-c"))
        .isEqualTo(String.valueOf(all.size()));
    assertThat(liveCredentialIs("h-599", credentials.get("h-599"))).isTrue();
  }

  /**
   * Benchmark ({@code -Dolmstead.bench=true}): handing 500 clusters over one transaction each
   * (before batching) against in the pool's batches of {@link HostedAgentPool#HANDOVER_BATCH},
   * three rounds each, on the same rows.
   */
  @Test
  void benchHandingOverFiveHundredOneByOneAgainstInBatches() throws Exception {
    Assumptions.assumeTrue(
        Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    List<String> all = new ArrayList<>();
    for (int i = 100; i < FLEET; i++) {
      all.add(String.format("h-%03d", i));
    }
    for (int round = 0; round < 3; round++) {
      long started = System.nanoTime();
      for (String cluster : all) {
        await(store.handOver(List.of(cluster), "bench-single"));
      }
      double single = (System.nanoTime() - started) / 1e6;
      started = System.nanoTime();
      for (int from = 0; from < all.size(); from += HostedAgentPool.HANDOVER_BATCH) {
        await(
            store.handOver(
                all.subList(from, Math.min(all.size(), from + HostedAgentPool.HANDOVER_BATCH)),
                "bench-batch"));
      }
      double batched = (System.nanoTime() - started) / 1e6;
      System.out.printf(
          "POOL BENCH handover clusters=%d one-by-one=%.0fms batched=%.0fms%n",
          all.size(), single, batched);
      assertThat(batched).isPositive();
    }
  }

  private static boolean liveCredentialIs(String cluster, String credential) throws Exception {
    return await(
                pool.preparedQuery(
                        "SELECT 1 FROM cluster_credentials WHERE cluster = $1 AND credential_hash = $2 "
                            + "AND revoked_at IS NULL")
                    .execute(Tuple.of(cluster, Buffer.buffer(Tokens.hash(credential)))))
            .size()
        == 1;
  }

  private static String single(String sql, String arg) throws Exception {
    var rows = await(pool.preparedQuery(sql).execute(Tuple.of(arg)));
    return rows.size() == 0 ? null : rows.iterator().next().getString(0);
  }

  private static <T> T await(io.vertx.core.Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
  }
}
