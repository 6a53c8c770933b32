package io.olmstead.controlplane.signals;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/** CloudEvents 1.0 in structured mode, as the V25 trigger writes the rollout ones. */
final class CloudEvents {
  private CloudEvents() {}

  static JsonObject event(String type, String source, String subject, JsonObject data) {
    return new JsonObject()
        .put("specversion", "1.0")
        .put("id", UUID.randomUUID().toString())
        .put("source", source)
        .put("type", type)
        .put("subject", subject)
        .put("time", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString())
        .put("datacontenttype", "application/json")
        .put("data", data);
  }
}
