package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every registry operation has a deadline: a registry that accepts and never answers, or answers a
 * byte at a time forever, holds a worker no longer than {@code OLMSTEAD_REGISTRY_TIMEOUT_SECONDS},
 * while a live registry is served meanwhile; closed and silent ports fail with the same message.
 * Work waits in its registry's queue, not on a worker: a silent registry holds at most its share of
 * the workers, however much of its work is queued.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RegistryDeadlineIT {
  static final Duration DEADLINE = Duration.ofSeconds(3);
  static final int FAIR_WORKERS = 4;
  static final RegistryMetrics METRICS = new RegistryMetrics(new SimpleMeterRegistry());
  static TestRegistry registry;
  static Vertx vertx;
  static String live;

  @BeforeAll
  static void start() {
    registry = TestRegistry.start();
    vertx = Vertx.vertx();
    byte[] layer =
        CatalogFixtures.tarGz(
            Map.of("manifests/a.yaml", "kind: ConfigMap\n".getBytes(StandardCharsets.UTF_8)));
    registry.pusher().image("live/app", "v1", ImagePusher.OCI_MANIFEST, Map.of(), List.of(layer));
    live = registry.host() + "/live/app:v1";
  }

  @AfterAll
  static void stop() {
    if (vertx != null) {
      vertx.close();
    }
    if (registry != null) {
      registry.close();
    }
  }

  static RegistryPool pool(String... stuck) {
    String[] insecure = new String[stuck.length + 1];
    insecure[0] = registry.host();
    System.arraycopy(stuck, 0, insecure, 1, stuck.length);
    return new RegistryPool(
        vertx,
        RegistrySettings.defaults(insecure).withTimeout(DEADLINE),
        METRICS,
        "test-registry",
        2);
  }

  static Throwable failure(Future<?> f) throws Exception {
    try {
      f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("the pull succeeded");
  }

  @Test
  void aSilentRegistryFailsAtTheDeadlineWhileALiveOneIsServed() throws Exception {
    try (StuckRegistry silent = StuckRegistry.silent();
        RegistryPool pool = pool(silent.host())) {
      Future<ImageManifest> stuck =
          pool.call(silent.host() + "/a/b:c", p -> p.resolve(silent.host() + "/a/b:c"));
      ImageManifest served =
          pool.call(live, p -> p.resolve(live))
              .toCompletionStage()
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      assertThat(served.source()).isEqualTo(live);
      assertThat(stuck.isComplete()).as("the silent registry is still being waited for").isFalse();
      Throwable e = failure(stuck);
      // the message names the deadline setting: the pull was cut by the deadline, not by a connect
      // error
      assertThat(e)
          .isInstanceOfSatisfying(
              RegistryException.class, r -> assertThat(r.kind()).isEqualTo(Kind.UNREACHABLE))
          .hasMessageContaining("registry " + silent.host() + " could not be reached")
          .hasMessageContaining(RegistrySettings.TIMEOUT_SECONDS);
      assertThat(silent.connections()).isPositive();
    }
  }

  @Test
  void aRegistryThatDripsBytesForeverIsCutAtTheDeadline() throws Exception {
    try (StuckRegistry drip = StuckRegistry.dripping();
        RegistryPool pool = pool(drip.host())) {
      // bytes keep coming, so no idle timeout fires: only the deadline (named in the message) ends
      // the pull
      Throwable e =
          failure(pool.call(drip.host() + "/a/b:c", p -> p.resolve(drip.host() + "/a/b:c")));
      assertThat(e)
          .isInstanceOfSatisfying(
              RegistryException.class, r -> assertThat(r.kind()).isEqualTo(Kind.UNREACHABLE))
          .hasMessageContaining(RegistrySettings.TIMEOUT_SECONDS);
      // the worker is free again: the next operation runs at once
      assertThat(
              pool.call(live, p -> p.resolve(live))
                  .toCompletionStage()
                  .toCompletableFuture()
                  .get(10, TimeUnit.SECONDS)
                  .source())
          .isEqualTo(live);
    }
  }

  @Test
  void closedAndSilentPortsFailWithTheSameMessage() throws Exception {
    String closed = "127.0.0.1:" + TestRegistry.freePort();
    try (StuckRegistry silent = StuckRegistry.silent();
        RegistryPool pool = pool(silent.host(), closed)) {
      String a =
          failure(pool.call(closed + "/a/b:c", p -> p.resolve(closed + "/a/b:c"))).getMessage();
      String b =
          failure(pool.call(silent.host() + "/a/b:c", p -> p.resolve(silent.host() + "/a/b:c")))
              .getMessage();
      assertThat(a.replace(closed, "HOST")).isEqualTo(b.replace(silent.host(), "HOST"));
    }
  }

  @Test
  void aSilentRegistryHoldsOnlyItsShareOfWorkersWhileAHealthyRegistrysPullIsServed() {
    // the deadline and idle timeout far beyond the test: the silent registry's work stays stuck
    // throughout
    RegistrySettings settings =
        RegistrySettings.defaults(registry.host())
            .withTimeout(Duration.ofMinutes(10))
            .withReadTimeout(Duration.ofMinutes(10));
    try (StuckRegistry silent = StuckRegistry.silent();
        RegistryPool pool =
            new RegistryPool(
                vertx,
                settings.withAllowLocal(silent.host()),
                METRICS,
                "fair-registry",
                FAIR_WORKERS)) {
      AtomicInteger silentStarted = new AtomicInteger();
      List<Future<ImageManifest>> stuck = new ArrayList<>();
      for (int i = 0; i < 2 * FAIR_WORKERS; i++) {
        String image = silent.host() + "/stuck/app" + i + ":v1";
        stuck.add(pool.call(image, silentStarted::incrementAndGet, p -> p.resolve(image)));
      }
      await().atMost(Duration.ofSeconds(20)).until(() -> silent.connections() >= FAIR_WORKERS - 1);

      Future<ImageManifest> healthy = pool.call(live, p -> p.resolve(live));

      await().atMost(Duration.ofSeconds(20)).until(healthy::isComplete);
      assertThat(healthy.succeeded()).as("the healthy pull: %s", healthy.cause()).isTrue();
      assertThat(stuck).noneMatch(Future::isComplete);
      assertThat(silentStarted)
          .as("workers taken by the silent registry")
          .hasValue(FAIR_WORKERS - 1);
    }
  }

  @Test
  void aSilentRegistryFailsAtTheIdleTimeoutLongBeforeTheDeadline() {
    RegistrySettings settings =
        RegistrySettings.defaults(registry.host())
            .withTimeout(Duration.ofMinutes(10))
            .withReadTimeout(Duration.ofSeconds(1));
    try (StuckRegistry silent = StuckRegistry.silent();
        RegistryPool pool =
            new RegistryPool(
                vertx, settings.withAllowLocal(silent.host()), METRICS, "idle-registry", 2)) {
      Future<ImageManifest> stuck =
          pool.call(silent.host() + "/a/b:c", p -> p.resolve(silent.host() + "/a/b:c"));
      await().atMost(Duration.ofSeconds(30)).until(stuck::isComplete);
      assertThat(stuck.cause())
          .isInstanceOfSatisfying(
              RegistryException.class, r -> assertThat(r.kind()).isEqualTo(Kind.UNREACHABLE))
          .hasMessageContaining(RegistrySettings.READ_TIMEOUT_SECONDS);
      assertThat(silent.connections()).isPositive();
    }
  }
}
