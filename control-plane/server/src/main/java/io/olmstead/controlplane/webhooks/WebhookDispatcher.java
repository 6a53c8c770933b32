package io.olmstead.controlplane.webhooks;

import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.controlplane.config.WebhookSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans events out and sends pending deliveries from every replica. Every {@link #TICK_MILLIS} the
 * fan-out moves the events raised since (one outbox row each, written by the transaction that
 * raised them) to one delivery per matching webhook, at most {@link #FAN_OUT_BATCHES} batches of
 * {@link Deliveries#FAN_OUT_BATCH} a tick, on whichever replica gets there first; it runs apart
 * from the sends, so receivers holding every slot do not stop it. Each tick also claims at most the
 * free share of {@link #MAX_IN_FLIGHT} deliveries, posts each as a structured CloudEvent ({@code
 * application/cloudevents+json}) signed with the webhook's secret ({@link WebhookSender}: checked
 * address, bounded in time and response size), and records the outcome. Nothing here runs in the
 * engine's transactions, so a slow or dead receiver costs only its own deliveries.
 */
final class WebhookDispatcher {
  static final int MAX_IN_FLIGHT = 16;
  // per webhook on this replica: a slow or dead receiver holds at most this many of the slots
  static final int PER_WEBHOOK = 2;
  static final long TICK_MILLIS = 1_000;
  static final long SWEEP_MILLIS = 60_000;

  /** How often the delivery backlog gauges are read (per replica, whatever the scrape interval). */
  static final long DELIVERY_BACKLOG_MILLIS = 10_000;

  // 10,000 events a second per replica at most: far above what the engine raises, bounded so a tick
  // stays short
  static final int FAN_OUT_BATCHES = 10;
  private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);

  private final Vertx vertx;
  private final Deliveries deliveries;
  private final WebhookSender sender;
  private final WebhookMetrics metrics;
  private final WebhookBacklog backlog;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Map<Long, Integer> perWebhook = new ConcurrentHashMap<>();
  private volatile boolean claiming;
  private volatile boolean fanningOut;

  WebhookDispatcher(Vertx vertx, Pool pool, WebhookSettings settings, MeterRegistry registry) {
    this.vertx = vertx;
    this.deliveries = new Deliveries(pool);
    this.metrics = new WebhookMetrics(registry, inFlight);
    this.backlog = new WebhookBacklog(pool, registry);
    this.sender =
        new WebhookSender(
            vertx,
            MAX_IN_FLIGHT,
            settings.allowPrivate(),
            InetAddress::getAllByName,
            WebhookSender.DEADLINE_MILLIS);
  }

  void start() {
    vertx.setPeriodic(TICK_MILLIS, id -> fanOut());
    vertx.setPeriodic(TICK_MILLIS, id -> tick());
    vertx.setPeriodic(
        SWEEP_MILLIS,
        id -> deliveries.sweep().onFailure(e -> LOG.debug("webhook sweep: {}", e.toString())));
    vertx.setPeriodic(
        1,
        DELIVERY_BACKLOG_MILLIS,
        id ->
            backlog
                .refreshDeliveries()
                .onFailure(e -> LOG.debug("webhook delivery backlog: {}", e.toString())));
  }

  private void fanOut() {
    if (fanningOut) {
      return;
    }
    fanningOut = true;
    fanOutBatches(FAN_OUT_BATCHES)
        .onComplete(
            ar -> {
              if (ar.failed()) {
                LOG.debug("webhook fan-out: {}", ar.cause().toString());
              } else if (ar.result() > 0) {
                tick(); // what was just queued is claimed now, not at the next tick
              }
              // the outbox's backlog gauges: what this fan-out left behind, read before the next
              // fan-out may start
              backlog
                  .refresh()
                  .onComplete(
                      read -> {
                        fanningOut = false;
                        if (read.failed()) {
                          LOG.debug("webhook backlog: {}", read.cause().toString());
                        }
                      });
            });
  }

  /**
   * Fans out batch after batch while they come full, at most {@code left}; answers the deliveries
   * queued.
   */
  private Future<Integer> fanOutBatches(int left) {
    return deliveries
        .fanOut(Deliveries.FAN_OUT_BATCH)
        .compose(
            done -> {
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
    List<Long> busy =
        perWebhook.entrySet().stream()
            .filter(e -> e.getValue() >= PER_WEBHOOK)
            .map(Map.Entry::getKey)
            .toList();
    deliveries
        .claim(free, busy)
        .onComplete(
            ar -> {
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
    perWebhook.merge(d.webhookId(), 1, Integer::sum);
    byte[] body = d.body().getBytes(StandardCharsets.UTF_8);
    sender
        .send(URI.create(d.url()), body, Signatures.sign(d.secret(), body))
        .onComplete(
            ar -> {
              Future<?> recorded;
              if (ar.succeeded() && ar.result() / 100 == 2) {
                metrics.outcome("delivered");
                recorded = deliveries.delivered(d.id(), ar.result());
              } else {
                Integer status = ar.succeeded() ? ar.result() : null;
                String error = ar.succeeded() ? "HTTP " + ar.result() : ar.cause().getMessage();
                recorded =
                    deliveries
                        .failedAttempt(d.id(), d.webhookId(), status, error, d.attempt())
                        .onSuccess(
                            gaveUp -> {
                              metrics.outcome(gaveUp ? "failed" : "retry");
                              if (gaveUp) {
                                LOG.info(
                                    "webhook {}: delivery {} failed after {} attempts: {}",
                                    d.webhook(),
                                    d.id(),
                                    d.attempt(),
                                    error);
                              }
                            });
              }
              recorded
                  .onComplete(
                      done -> {
                        inFlight.decrementAndGet();
                        perWebhook.computeIfPresent(d.webhookId(), (k, n) -> n <= 1 ? null : n - 1);
                        tick(); // a freed slot is used at once, not at the next tick
                      })
                  .onFailure(
                      e ->
                          LOG.debug(
                              "webhook {}: outcome not recorded: {}", d.webhook(), e.toString()));
            });
  }
}
