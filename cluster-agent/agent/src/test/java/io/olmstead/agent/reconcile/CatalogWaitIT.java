package io.olmstead.agent.reconcile;

import static io.olmstead.agent.testing.SimFixture.etcd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import io.olmstead.olmcore.fbc.Catalog;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A catalog that cannot be had yet is retried with a short, growing delay, not at the next full
 * resync.
 */
class CatalogWaitIT {
  /**
   * Far beyond every wait below: a pass the test sees comes from the catalog retry, not from the
   * resync.
   */
  private static final Duration RESYNC = Duration.ofMinutes(10);

  private final AtomicInteger fetches = new AtomicInteger();
  private final AtomicBoolean available = new AtomicBoolean();
  private SimFixture sim;

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void aCatalogThatFailedToLoadIsRetriedLongBeforeTheResync() throws Exception {
    Catalog catalog = SharedCatalogs.bundled();
    sim =
        new SimFixture(
            (name, digest) ->
                fetches.incrementAndGet() <= 2 ? Optional.empty() : Optional.of(catalog),
            false,
            RESYNC,
            Duration.ofMillis(100));
    sim.desire(etcd("0.9.2"));
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(
            () -> assertThat(sim.sink.latest("etcd").orElseThrow().phase()).isEqualTo("Succeeded"));
    assertThat(sim.sink.history("etcd"))
        .anySatisfy(s -> assertThat(s.message()).contains("not available yet"));
    assertThat(fetches.get()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void aReconnectedChannelRetriesWaitingNamespacesAtOnce() throws Exception {
    Catalog catalog = SharedCatalogs.bundled();
    sim =
        new SimFixture(
            (name, digest) -> {
              fetches.incrementAndGet();
              return available.get() ? Optional.of(catalog) : Optional.empty();
            },
            false,
            RESYNC,
            Duration.ofMillis(100));
    sim.desire(etcd("0.9.2"));
    // Failures at about 0 s, 1 s and 3 s; the backoff would wait 4 s more before the next.
    await().atMost(Duration.ofSeconds(20)).until(() -> fetches.get() >= 3);
    int before = fetches.get();
    available.set(true);
    sim.cluster.agent().catalogsChanged();
    await().atMost(Duration.ofMillis(2500)).until(() -> fetches.get() > before);
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(
            () -> assertThat(sim.sink.latest("etcd").orElseThrow().phase()).isEqualTo("Succeeded"));
  }
}
