package io.olmstead.controlplane.webhooks;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends pending deliveries from every replica: each tick claims at most the free share of {@link #MAX_IN_FLIGHT}
 * deliveries, posts each as a structured CloudEvent ({@code application/cloudevents+json}) signed with the webhook's
 * secret ({@link WebhookSender}: checked address, bounded in time and response size), and records the outcome. Nothing
 * here runs in the engine's transactions, so a slow or dead receiver costs only its own deliveries.
 */
final class WebhookDispatcher {
  static final int MAX_IN_FLIGHT = 16;
  // per webhook on this replica: a slow or dead receiver holds at most this many of the slots
  static final int PER_WEBHOOK = 2;
  static final long TICK_MILLIS = 1_000;
  static final long SWEEP_MILLIS = 60_000;
  private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);

  private final Vertx vertx;
  private final Deliveries deliveries;
  private final WebhookSender sender;
  private final WebhookMetrics metrics;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final java.util.concurrent.ConcurrentHashMap<String, Integer> perWebhook =
      new java.util.concurrent.ConcurrentHashMap<>();
  private volatile boolean claiming;

  WebhookDispatcher(Vertx vertx, Pool pool, WebhookSettings settings, MeterRegistry registry) {
    this.vertx = vertx;
    this.deliveries = new Deliveries(pool);
    this.metrics = new WebhookMetrics(registry, inFlight);
    this.sender = new WebhookSender(vertx, MAX_IN_FLIGHT, settings.allowPrivate(), InetAddress::getAllByName,
        WebhookSender.DEADLINE_MILLIS);
  }

  void start() {
    vertx.setPeriodic(TICK_MILLIS, id -> tick());
    vertx.setPeriodic(SWEEP_MILLIS, id -> deliveries.sweep()
        .onFailure(e -> LOG.debug("webhook sweep: {}", e.toString())));
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
    byte[] body = d.body().getBytes(StandardCharsets.UTF_8);
    sender.send(URI.create(d.url()), body, Signatures.sign(d.secret(), body)).onComplete(ar -> {
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

}
