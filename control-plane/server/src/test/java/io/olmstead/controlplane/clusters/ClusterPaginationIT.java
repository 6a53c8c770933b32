package io.olmstead.controlplane.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keyset pages stay exact while other clusters are inserted between and before the pages. */
class ClusterPaginationIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final int EXISTING = 300;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(ClusterPaginationIT.class);
    api = new ApiClient(cp);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels) SELECT 'c-' || lpad(i::text, 4, '0'), "
            + "jsonb_build_object('env', CASE WHEN i % 2 = 0 THEN 'prod' ELSE 'dev' END) FROM generate_series(1, "
            + EXISTING
            + ") i");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void everyClusterPresentThroughoutIsListedExactlyOnceInOrderDespiteConcurrentInserts()
      throws Exception {
    AtomicBoolean walking = new AtomicBoolean(true);
    AtomicInteger inserted = new AtomicInteger();
    ExecutorService writer = Executors.newSingleThreadExecutor();
    Future<?> writes =
        writer.submit(
            () -> {
              int i = 0;
              while (walking.get() && i < 400) {
                // Names that sort before, between and after the existing ones.
                String name =
                    switch (i % 3) {
                      case 0 -> "a-new-" + i;
                      case 1 -> "c-" + String.format("%04d", 1 + i % EXISTING) + "-x" + i;
                      default -> "z-new-" + i;
                    };
                TestDatabase.execute(
                    cp.database(),
                    "INSERT INTO clusters (name, labels) VALUES ('"
                        + name
                        + "', '{\"env\":\"prod\"}')");
                inserted.incrementAndGet();
                i++;
              }
            });
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    try {
      do {
        Response page =
            api.get(
                "/api/v1/clusters?limit=7&selector=env%3Dprod"
                    + (cursor == null ? "" : "&cursor=" + cursor),
                ADMIN);
        assertThat(page.status()).isEqualTo(200);
        page.items().forEach(item -> seen.add(((JsonObject) item).getString("name")));
        cursor = page.json().getString("nextCursor");
        pages++;
      } while (cursor != null);
    } finally {
      walking.set(false);
      writes.get(60, TimeUnit.SECONDS);
      writer.shutdown();
    }
    assertThat(inserted.get()).as("inserts during the walk").isPositive();
    assertThat(pages).isGreaterThan(EXISTING / 2 / 7);
    assertThat(seen).doesNotHaveDuplicates().isSorted();
    Set<String> expected = new HashSet<>();
    for (int i = 2; i <= EXISTING; i += 2) {
      expected.add("c-" + String.format("%04d", i));
    }
    assertThat(seen).containsAll(expected);
  }
}
