package io.olmstead.controlplane.webhooks;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.sqlclient.Pool;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans events out and sends pending deliveries from every replica. Every {@link #TICK_MILLIS} the fan-out moves the
 * events raised since (one outbox row each, written by the transaction that raised them) to one delivery per matching
 * webhook, at most {@link #FAN_OUT_BATCHES} batches of {@link Deliveries#FAN_OUT_BATCH} a tick, on whichever replica
 * gets there first; it runs apart from the sends, so receivers holding every slot do not stop it. Each tick also claims at most the free share of {@link #MAX_IN_FLIGHT}
 * deliveries, posts each as a structured CloudEvent ({@code application/cloudevents+json}) signed with the webhook's
 * secret, bounded in time (connect 5 s, idle 10 s) and in the response read (64 KiB), and records the outcome. Nothing
 * here runs in the engine's transactions, so a slow or dead receiver costs only its own deliveries.
 */
final class WebhookDispatcher {
  static final int MAX_IN_FLIGHT = 16;
  // per webhook on this replica: a slow or dead receiver holds at most this many of the slots
  static final int PER_WEBHOOK = 2;
  static final long TICK_MILLIS = 1_000;
  static final long SWEEP_MILLIS = 60_000;
  // 10,000 events a second per replica at most: far above what the engine raises, bounded so a tick stays short
  static final int FAN_OUT_BATCHES = 10;
  static final int MAX_RESPONSE_BYTES = 64 * 1024;
  private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);

  private final Vertx vertx;
  private final Deliveries deliveries;
  private final HttpClient http;
  private final WebhookSettings settings;
  private final WebhookMetrics metrics;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final java.util.concurrent.ConcurrentHashMap<String, Integer> perWebhook =
      new java.util.concurrent.ConcurrentHashMap<>();
  private volatile boolean claiming;
  private volatile boolean fanningOut;

  WebhookDispatcher(Vertx vertx, Pool pool, WebhookSettings settings, MeterRegistry registry) {
    this.vertx = vertx;
    this.deliveries = new Deliveries(pool);
    this.settings = settings;
    this.metrics = new WebhookMetrics(registry, inFlight);
    this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(5_000).setIdleTimeout(10)
        .setMaxPoolSize(MAX_IN_FLIGHT).setKeepAlive(false));
  }

  void start() {
    vertx.setPeriodic(TICK_MILLIS, id -> fanOut());
    vertx.setPeriodic(TICK_MILLIS, id -> tick());
    vertx.setPeriodic(SWEEP_MILLIS, id -> deliveries.sweep()
        .onFailure(e -> LOG.debug("webhook sweep: {}", e.toString())));
  }

  private void fanOut() {
    if (fanningOut) {
      return;
    }
    fanningOut = true;
    fanOutBatches(FAN_OUT_BATCHES).onComplete(ar -> {
      fanningOut = false;
      if (ar.failed()) {
        LOG.debug("webhook fan-out: {}", ar.cause().toString());
      } else if (ar.result() > 0) {
        tick(); // what was just queued is claimed now, not at the next tick
      }
    });
  }

  /** Fans out batch after batch while they come full, at most {@code left}; answers the deliveries queued. */
  private Future<Integer> fanOutBatches(int left) {
    return deliveries.fanOut(Deliveries.FAN_OUT_BATCH).compose(done -> {
      if (done.events() < Deliveries.FAN_OUT_BATCH || left <= 1) {
        return Future.succeededFuture(done.deliveries());
      }
      return fanOutBatches(left - 1).map(more -> done.deliveries() + more);
    });
  }

  private void tick() {
    int free = MAX_IN_FLIGHT - inFlight.get();
    if (free <= 0 || claiming) {
      return;
    }
    claiming = true;
    List<String> busy = perWebhook.entrySet().stream().filter(e -> e.getValue() >= PER_WEBHOOK)
        .map(java.util.Map.Entry::getKey).toList();
    deliveries.claim(free, busy).onComplete(ar -> {
      claiming = false;
      if (ar.failed()) {
        LOG.debug("webhook claim: {}", ar.cause().toString());
        return;
      }
      ar.result().forEach(this::send);
    });
  }

  private void send(Deliveries.Claimed d) {
    inFlight.incrementAndGet();
    perWebhook.merge(d.webhook(), 1, Integer::sum);
    URI uri = URI.create(d.url());
    checkAddress(uri).compose(v -> post(uri, d)).onComplete(ar -> {
      Future<?> recorded;
      if (ar.succeeded() && ar.result() / 100 == 2) {
        metrics.outcome("delivered");
        recorded = deliveries.delivered(d.id(), ar.result());
      } else {
        Integer status = ar.succeeded() ? ar.result() : null;
        String error = ar.succeeded() ? "HTTP " + ar.result() : ar.cause().getMessage();
        recorded = deliveries.failedAttempt(d.id(), d.webhook(), status, error, d.attempt()).onSuccess(gaveUp -> {
          metrics.outcome(gaveUp ? "failed" : "retry");
          if (gaveUp) {
            LOG.info("webhook {}: delivery {} failed after {} attempts: {}", d.webhook(), d.id(), d.attempt(), error);
          }
        });
      }
      recorded.onComplete(done -> {
        inFlight.decrementAndGet();
        perWebhook.computeIfPresent(d.webhook(), (k, n) -> n <= 1 ? null : n - 1);
        tick(); // a freed slot is used at once, not at the next tick
      })
          .onFailure(e -> LOG.debug("webhook {}: outcome not recorded: {}", d.webhook(), e.toString()));
    });
  }

  /** Refuses a receiver whose name resolves to a private address unless allowed (resolved on a worker). */
  private Future<Void> checkAddress(URI uri) {
    if (settings.allowPrivate()) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(() -> {
      for (InetAddress address : InetAddress.getAllByName(uri.getHost())) {
        if (io.olmstead.controlplane.http.AddressRanges.isPrivate(address)) {
          throw new IllegalStateException("refused: " + uri.getHost() + " resolves to a private address");
        }
      }
      return null;
    }, false);
  }

  private Future<Integer> post(URI uri, Deliveries.Claimed d) {
    byte[] body = d.body().getBytes(StandardCharsets.UTF_8);
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(uri.toString())
        .setIdleTimeout(10_000).setConnectTimeout(5_000)
        .putHeader("Content-Type", "application/cloudevents+json; charset=utf-8")
        .putHeader(Signatures.HEADER, Signatures.sign(d.secret(), body))
        .putHeader("User-Agent", "olmstead-webhooks");
    return http.request(options).compose(request -> request.send(Buffer.buffer(body))).compose(response -> {
      AtomicInteger read = new AtomicInteger();
      response.handler(chunk -> {
        if (read.addAndGet(chunk.length()) > MAX_RESPONSE_BYTES) {
          response.request().reset();
        }
      });
      return response.end().map(v -> response.statusCode())
          .recover(e -> Future.succeededFuture(response.statusCode()));
    });
  }
}
