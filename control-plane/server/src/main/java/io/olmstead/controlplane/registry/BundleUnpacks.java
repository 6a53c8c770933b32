package io.olmstead.controlplane.registry;

import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import io.olmstead.olmcore.bundle.BundleLimits;
import io.olmstead.olmcore.bundle.BundleUnpackException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Unpacks bundle images once per fleet: a request records the digest (Pending) and, when the pull
 * is due, claims it in PostgreSQL so exactly one replica pulls; a periodic sweep records the
 * bundles of subscribed packages (subscription placed or changed, catalog revision changed) and
 * starts every due pull, also rows other components recorded (an agent asking for a bundle of a
 * catalog); requests arriving meanwhile share that pull. Unreachable registries are retried with
 * doubling backoff (a sweep picks up due retries, also after a restart) up to {@code MAX_ATTEMPTS},
 * then the bundle is {@code Failed} with the message; other failures (denied, not found, not a
 * bundle, limits, digest mismatch) fail at once. One failing bundle never blocks another.
 */
public final class BundleUnpacks implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BundleUnpacks.class);
  static final Pattern PINNED = Pattern.compile("^(.+)@(sha256:[a-f0-9]{64})$");
  static final int MAX_ATTEMPTS = 5;

  private final Vertx vertx;
  private final BundleImageStore store;
  private final RegistryPool workers;
  private final BundlePull pull;
  private final Duration backoff;
  private final BundleUnpackMetrics metrics;
  private final Map<String, Future<BundleImage>> inFlight = new ConcurrentHashMap<>();
  private final long sweepTimer;

  public BundleUnpacks(
      Vertx vertx,
      Pool pool,
      RegistrySettings settings,
      BundleLimits limits,
      Duration backoff,
      RegistryMetrics registryMetrics,
      MeterRegistry meters) {
    this.vertx = vertx;
    this.store = new BundleImageStore(pool);
    this.workers =
        new RegistryPool(vertx, settings, registryMetrics, "olmstead-registry", settings.workers());
    this.metrics = new BundleUnpackMetrics(meters);
    this.pull = new BundlePull(settings, limits);
    this.backoff = backoff;
    this.sweepTimer =
        vertx.setPeriodic(Math.max(1000, Math.min(backoff.toMillis(), 30_000)), id -> sweep());
  }

  /** The digest of a reference pinned by digest ({@code repo@sha256:…}); empty for a tag. */
  public static Optional<String> digestOf(String image) {
    var m = PINNED.matcher(image == null ? "" : image);
    return m.matches() ? Optional.of(m.group(2)) : Optional.empty();
  }

  /**
   * Asks for {@code image} (pinned by digest) to be unpacked; answers its state now (Pending, or
   * whatever it already is). {@code retryFailed}: an explicit request tries a Failed bundle again.
   */
  public Future<BundleImage> request(String image, boolean retryFailed) {
    String digest =
        digestOf(image)
            .orElseThrow(() -> new IllegalArgumentException("not pinned by digest: " + image));
    return store
        .ensure(digest, image, retryFailed)
        .compose(
            v -> {
              start(digest);
              return store.get(digest).map(Optional::orElseThrow);
            });
  }

  public Future<Optional<BundleImage>> get(String digest) {
    return store.get(digest);
  }

  /**
   * Waits for this replica's pull of {@code digest} when one runs; else answers the stored state.
   */
  public Future<Optional<BundleImage>> settled(String digest) {
    Future<BundleImage> running = inFlight.get(digest);
    return running == null
        ? store.get(digest)
        : running.map(Optional::of).recover(e -> store.get(digest));
  }

  /** The gzip of the objects document of an unpacked bundle. */
  public Future<Optional<Buffer>> objects(String digest) {
    return store.objects(digest);
  }

  private void start(String digest) {
    if (inFlight.containsKey(digest)) {
      return;
    }
    Future<BundleImage> run =
        store
            .claim(digest)
            .compose(
                claimed ->
                    claimed.isEmpty()
                        ? store.get(digest).map(Optional::orElseThrow)
                        : unpack(digest, claimed.get()));
    if (inFlight.putIfAbsent(digest, run) == null) {
      run.onComplete(ar -> inFlight.remove(digest, run));
    }
  }

  private Future<BundleImage> unpack(String digest, BundleImageStore.Claim claim) {
    String latest = claim.images().get(0);
    long started = System.nanoTime();
    return pullAny(digest, claim.images(), 0, null)
        .compose(
            r ->
                store
                    .unpacked(digest, r.objectsGz(), r.count(), r.size())
                    .onSuccess(v -> metrics.finished("unpacked", System.nanoTime() - started)),
            e ->
                recordFailure(digest, latest, claim.attempt(), e)
                    .onSuccess(
                        retry ->
                            metrics.finished(
                                retry ? "retry" : "failed", System.nanoTime() - started))
                    .<Void>mapEmpty())
        .compose(v -> store.get(digest).map(Optional::orElseThrow));
  }

  /**
   * Pulls from the references in turn (latest first) until one serves the digest; a bundle that is
   * not valid fails at once (the digest names the content, another reference would serve the same).
   * The latest reference's error is the one reported; retried when any reference was unreachable.
   */
  private Future<BundlePull.Result> pullAny(
      String digest, List<String> images, int i, RegistryException first) {
    String image = images.get(i);
    Runnable started = () -> store.started(digest);
    return workers
        .call(image, started, puller -> pull.pull(puller, image, digest))
        .recover(
            e -> {
              if (!(e instanceof RegistryException re)) {
                return Future.failedFuture(e);
              }
              RegistryException reported =
                  first == null
                      ? re
                      : first.kind().retryable() || !re.kind().retryable()
                          ? first
                          : new RegistryException(Kind.UNREACHABLE, first.getMessage());
              if (i + 1 >= images.size()) {
                return Future.failedFuture(
                    images.size() == 1
                        ? reported
                        : new RegistryException(
                            reported.kind(),
                            reported.getMessage()
                                + " ("
                                + (images.size() - 1)
                                + " other reference(s) of this digest failed too)"));
              }
              return pullAny(digest, images, i + 1, reported);
            });
  }

  /** Records a failed attempt; answers whether the bundle is tried again (else it is Failed). */
  private Future<Boolean> recordFailure(String digest, String image, int attempt, Throwable e) {
    boolean retry =
        e instanceof RegistryException re && re.kind().retryable() && attempt < MAX_ATTEMPTS;
    String message =
        e instanceof RegistryException || e instanceof BundleUnpackException
            ? e.getMessage()
            : "unpack failed: " + e.getClass().getSimpleName();
    double after = backoff.toMillis() / 1000.0 * (1L << Math.min(attempt - 1, 6));
    LOG.info(
        "bundle {} ({}): attempt {} failed{}: {}",
        digest,
        image,
        attempt,
        retry ? ", retrying" : "",
        message);
    return store.failed(digest, retry, message, Math.min(after, 300.0)).map(retry);
  }

  private void sweep() {
    store
        .prefetch()
        .compose(n -> store.due(20))
        .onSuccess(rows -> rows.forEach(this::start))
        .onFailure(e -> LOG.debug("bundle sweep: {}", e.toString()));
  }

  @Override
  public void close() {
    vertx.cancelTimer(sweepTimer);
    workers.close();
  }
}
