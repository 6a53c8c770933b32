package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.olmstead.olmcore.bundle.BundleLimits;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A bundle image's digest keeps every reference it was named by: a Failed digest named by a new
 * reference is tried again, falling back to older references; and a pull waiting for a worker shows
 * Pending, not Unpacking.
 */
class BundleRetryIT {
  static TestRegistry registry;
  static DeclarativeConfig catalog;
  static Vertx vertx;
  static Pool pool;

  @BeforeAll
  static void start() throws Exception {
    catalog = BundleImages.bundledCatalog();
    registry = TestRegistry.start();
    DatabaseSettings db = TestDatabase.create(BundleRetryIT.class);
    Migrations.migrate(db);
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(4))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
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

  static BundleUnpacks unpacks(RegistrySettings settings) {
    return unpacks(settings, new SimpleMeterRegistry());
  }

  static BundleUnpacks unpacks(RegistrySettings settings, MeterRegistry meters) {
    return new BundleUnpacks(
        vertx,
        pool,
        settings,
        BundleLimits.defaults(),
        Duration.ofSeconds(1),
        new RegistryMetrics(meters),
        meters);
  }

  static <T> T get(io.vertx.core.Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  static BundleImage settled(BundleUnpacks unpacks, String digest) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> unpacks.get(digest).toCompletionStage().toCompletableFuture().get().orElseThrow(),
            b -> b.state().equals(BundleImage.UNPACKED) || b.state().equals(BundleImage.FAILED));
  }

  @Test
  void aFailedDigestNamedByANewReferenceIsPulledAgainFromIt() throws Exception {
    String good = BundleImages.push(registry, BundleImages.bundle(catalog, "etcdoperator.v0.9.4"));
    String digest = BundleUnpacks.digestOf(good).orElseThrow();
    String moved = registry.host() + "/moved/etcd@" + digest;
    try (BundleUnpacks unpacks = unpacks(RegistrySettings.defaults(registry.host()))) {
      get(unpacks.request(moved, false));
      assertThat(settled(unpacks, digest).state()).isEqualTo(BundleImage.FAILED);
      // named again by the same reference: stays Failed (no retry loop)
      get(unpacks.request(moved, false));
      assertThat(get(unpacks.get(digest)).orElseThrow().state()).isEqualTo(BundleImage.FAILED);
      // named by another reference that serves it: tried again from that one
      get(unpacks.request(good, false));
      BundleImage b = settled(unpacks, digest);
      assertThat(b.state()).as(b.toString()).isEqualTo(BundleImage.UNPACKED);
      assertThat(b.image()).isEqualTo(good);
    }
  }

  @Test
  void unpacksAndRegistryRequestsAreCountedByOutcomeAndRegistry() throws Exception {
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // a bundle no other test of this class (one database) unpacks
    String good = BundleImages.push(registry, BundleImages.bundle(catalog, "etcdoperator.v0.6.1"));
    String digest = BundleUnpacks.digestOf(good).orElseThrow();
    String missing =
        registry.host() + "/missing/etcd@" + digest; // never pushed: the registry answers 404
    try (BundleUnpacks unpacks = unpacks(RegistrySettings.defaults(registry.host()), meters)) {
      get(unpacks.request(missing, false));
      assertThat(settled(unpacks, digest).state()).isEqualTo(BundleImage.FAILED);
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(meters.scrape())
                      .contains(
                          "olmstead_bundle_unpacks_total{outcome=\"failed\"} 1.0",
                          "olmstead_bundle_unpacks_total{outcome=\"unpacked\"} 0.0",
                          "olmstead_registry_requests_total{outcome=\"not_found\",registry=\""
                              + registry.host()
                              + "\"} 1.0"));
      get(unpacks.request(good, false));
      assertThat(settled(unpacks, digest).state()).isEqualTo(BundleImage.UNPACKED);
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(meters.scrape())
                      .contains(
                          "olmstead_bundle_unpacks_total{outcome=\"unpacked\"} 1.0",
                          "olmstead_bundle_unpacks_total{outcome=\"retry\"} 0.0",
                          "olmstead_bundle_unpack_duration_seconds_count{outcome=\"unpacked\"} 1",
                          "olmstead_registry_requests_total{outcome=\"success\",registry=\""
                              + registry.host()
                              + "\"} 1.0"));
    }
  }

  @Test
  void aRetryFallsBackToAnOlderReferenceThatNowWorks() throws Exception {
    Bundle bundle = BundleImages.bundle(catalog, "etcdoperator.v0.9.2");
    String digest = BundleUnpacks.digestOf(BundleImages.push(registry, bundle)).orElseThrow();
    String later = registry.host() + "/later/etcd@" + digest; // pushed only after it failed
    String wrong = registry.host() + "/wrong/etcd@" + digest; // never pushed
    try (BundleUnpacks unpacks = unpacks(RegistrySettings.defaults(registry.host()))) {
      get(unpacks.request(later, false));
      assertThat(settled(unpacks, digest).state()).isEqualTo(BundleImage.FAILED);
      registry
          .pusher()
          .image(
              "later/etcd",
              "v1",
              ImagePusher.OCI_MANIFEST,
              java.util.Map.of(
                  "operators.operatorframework.io.bundle.mediatype.v1",
                  "registry+v1",
                  "operators.operatorframework.io.bundle.package.v1",
                  bundle.packageName()),
              java.util.List.of(BundleImages.layer(bundle)));
      get(unpacks.request(wrong, false));
      BundleImage b = settled(unpacks, digest);
      assertThat(b.state()).as(b.toString()).isEqualTo(BundleImage.UNPACKED);
    }
  }

  @Test
  void aPullWaitingForABusyWorkerShowsPendingUntilAWorkerTakesIt() throws Exception {
    String live = BundleImages.push(registry, BundleImages.bundle(catalog, "etcdoperator.v0.9.0"));
    String liveDigest = BundleUnpacks.digestOf(live).orElseThrow();
    try (StuckRegistry silent = StuckRegistry.silent();
        BundleUnpacks unpacks =
            unpacks(
                RegistrySettings.defaults(registry.host(), silent.host())
                    .withWorkers(1)
                    .withTimeout(Duration.ofSeconds(6)))) {
      String stuckDigest = "sha256:" + "c".repeat(64);
      get(unpacks.request(silent.host() + "/stuck/b@" + stuckDigest, false));
      await()
          .atMost(Duration.ofSeconds(5))
          .until(
              () -> get(unpacks.get(stuckDigest)).orElseThrow().state(),
              BundleImage.UNPACKING::equals);
      get(unpacks.request(live, false));
      // for as long as the only worker waits on the silent registry (until its 6 s timeout): read
      // before the stuck one's state, the live one's cannot have been taken by that worker yet
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                String liveState = get(unpacks.get(liveDigest)).orElseThrow().state();
                boolean stuck =
                    get(unpacks.get(stuckDigest))
                        .orElseThrow()
                        .state()
                        .equals(BundleImage.UNPACKING);
                if (stuck) {
                  assertThat(liveState)
                      .as("while the worker is stuck")
                      .isEqualTo(BundleImage.PENDING);
                }
                return !stuck;
              });
      assertThat(settled(unpacks, liveDigest).state()).isEqualTo(BundleImage.UNPACKED);
    }
  }
}
