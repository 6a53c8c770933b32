package io.olmstead.controlplane.webhooks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code olmstead_webhook_deliveries_total{outcome}} (delivered, retry, failed) and the in-flight
 * gauge.
 */
final class WebhookMetrics {
  private final Map<String, Counter> outcomes;

  WebhookMetrics(MeterRegistry registry, AtomicInteger inFlight) {
    outcomes =
        Map.of(
            "delivered", counter(registry, "delivered"),
            "retry", counter(registry, "retry"),
            "failed", counter(registry, "failed"));
    Gauge.builder("olmstead.webhook.in.flight", inFlight, AtomicInteger::get)
        .description("Webhook deliveries being sent by this replica")
        .register(registry);
  }

  void outcome(String outcome) {
    outcomes.get(outcome).increment();
  }

  private static Counter counter(MeterRegistry registry, String outcome) {
    return Counter.builder("olmstead.webhook.deliveries")
        .tag("outcome", outcome)
        .description("Webhook delivery attempts by outcome")
        .register(registry);
  }
}
