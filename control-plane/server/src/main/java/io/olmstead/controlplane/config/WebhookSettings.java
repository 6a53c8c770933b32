package io.olmstead.controlplane.config;

import java.util.Map;

/**
 * Webhook delivery settings: {@code OLMSTEAD_WEBHOOK_ALLOW_PRIVATE} ({@code true} lets webhooks
 * point at loopback or private addresses, for receivers inside the cluster network and for tests;
 * default {@code false}), and the thresholds of the signals that raise events ({@link
 * SignalSettings}), carried here so that every way of building the configuration reads them.
 */
public record WebhookSettings(boolean allowPrivate, SignalSettings signals) {
  public static final String ALLOW_PRIVATE = "OLMSTEAD_WEBHOOK_ALLOW_PRIVATE";

  public static WebhookSettings fromEnvironment(Map<String, String> env) {
    String text = env.getOrDefault(ALLOW_PRIVATE, "false").trim();
    if (!text.equals("true") && !text.equals("false")) {
      throw new ConfigException(ALLOW_PRIVATE, "must be true or false, not '" + text + "'");
    }
    return new WebhookSettings(Boolean.parseBoolean(text), SignalSettings.fromEnvironment(env));
  }
}
