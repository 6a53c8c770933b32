package io.olmstead.controlplane.subscription;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The stored {@code subscription_status.csv} (requirement status, webhooks, certificates as the
 * agent reported them) as the API shows it on a per-cluster status item, with OLM's {@code
 * certsRotateAt}: the earliest {@code rotateAt}.
 */
public final class CsvDetailsView {
  private CsvDetailsView() {}

  /**
   * Adds the non-empty lists of {@code csv} (a stored jsonb value, or null) to {@code item};
   * returns {@code item}.
   */
  public static JsonObject addTo(JsonObject item, Object csv) {
    if (!(csv instanceof JsonObject details)) {
      return item;
    }
    for (String list : new String[] {"requirementStatus", "webhooks", "certificates"}) {
      if (details.getValue(list) instanceof JsonArray entries && !entries.isEmpty()) {
        item.put(list, entries);
      }
    }
    String rotateAt = null;
    if (details.getValue("certificates") instanceof JsonArray certificates) {
      for (Object entry : certificates) {
        String at = entry instanceof JsonObject c ? c.getString("rotateAt") : null;
        // RFC 3339 instants in UTC as the agent writes them (Instant.toString) compare as text
        if (at != null && (rotateAt == null || at.compareTo(rotateAt) < 0)) {
          rotateAt = at;
        }
      }
    }
    return rotateAt == null ? item : item.put("certsRotateAt", rotateAt);
  }
}
