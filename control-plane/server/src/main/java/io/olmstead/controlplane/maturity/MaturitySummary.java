package io.olmstead.controlplane.maturity;

import io.olmstead.olmcore.maturity.Category;
import io.olmstead.olmcore.maturity.Severity;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The catalog-wide maturity summary (schema CatalogMaturityPackage): per package, the head bundle
 * of every channel with its findings counted by severity and by category, its scores and its
 * declared and evidenced capability. Pure: it reads stored reports.
 */
final class MaturitySummary {

  /**
   * A channel of a package, its head and the head's stored report (null when none is stored), and
   * the digest of the head's image when that is unpacked.
   */
  record Head(String pkg, String channel, String bundle, JsonObject report, String image) {
    Head withReport(JsonObject r) {
      return new Head(pkg, channel, bundle, r, image);
    }
  }

  private MaturitySummary() {}

  /** One item per package of {@code packages} (in that order), from the heads of its channels. */
  static List<JsonObject> items(List<String> packages, List<Head> heads) {
    Map<String, JsonObject> items = new LinkedHashMap<>();
    for (String p : packages) {
      items.put(
          p,
          new JsonObject()
              .put("package", p)
              .put("channels", new JsonArray())
              .put("heads", new JsonArray()));
    }
    Map<String, JsonObject> byBundle = new LinkedHashMap<>();
    for (Head h : heads) {
      JsonObject item = items.get(h.pkg());
      if (item == null) {
        continue;
      }
      item.getJsonArray("channels")
          .add(new JsonObject().put("channel", h.channel()).put("head", h.bundle()));
      if (h.bundle() == null) {
        continue;
      }
      JsonObject head = byBundle.get(h.pkg() + "/" + h.bundle());
      if (head == null) {
        head = head(h.bundle(), h.report());
        byBundle.put(h.pkg() + "/" + h.bundle(), head);
        item.getJsonArray("heads").add(head);
      }
      head.getJsonArray("channels").add(h.channel());
    }
    return List.copyOf(items.values());
  }

  /**
   * A head bundle's counts; a bundle without a stored report has none (its package's report could
   * not be made).
   */
  static JsonObject head(String bundle, JsonObject report) {
    JsonObject head = new JsonObject().put("bundle", bundle).put("channels", new JsonArray());
    if (report == null) {
      return head.put("reported", false);
    }
    JsonObject bySeverity = new JsonObject();
    for (Severity s : Severity.values()) {
      bySeverity.put(s.id(), 0);
    }
    JsonObject byCategory = new JsonObject();
    for (Category c : Category.values()) {
      byCategory.put(c.id(), 0);
    }
    for (Object o : report.getJsonArray("findings", new JsonArray())) {
      JsonObject f = (JsonObject) o;
      bySeverity.put(
          f.getString("severity"), bySeverity.getInteger(f.getString("severity"), 0) + 1);
      byCategory.put(
          f.getString("category"), byCategory.getInteger(f.getString("category"), 0) + 1);
    }
    return head.put("reported", true)
        .put("declaredCapability", report.getString("declaredCapability"))
        .put("evidencedCapability", report.getString("evidencedCapability"))
        .put("bySeverity", bySeverity)
        .put("byCategory", byCategory)
        .put("omittedFindings", report.getInteger("omittedFindings", 0))
        .put("scores", report.getJsonObject("scores", new JsonObject()));
  }
}
