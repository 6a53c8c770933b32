package io.olmstead.controlplane.maturity;

import io.olmstead.olmcore.maturity.Category;
import io.olmstead.olmcore.maturity.Finding;
import io.olmstead.olmcore.maturity.MaturityDiff;
import io.olmstead.olmcore.maturity.MaturityReport;
import io.olmstead.olmcore.maturity.Severity;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The API's JSON for maturity reports and diffs (schemas MaturityReport, MaturityDiff); pure. */
final class MaturityJson {

  private MaturityJson() {}

  /**
   * The stored form: everything but the catalog name (content digests are shared between catalogs).
   */
  static JsonObject report(String packageName, String digest, MaturityReport r) {
    JsonObject scores = new JsonObject();
    r.scores().forEach((c, s) -> scores.put(c.id(), s));
    JsonArray findings = new JsonArray();
    r.findings().forEach(f -> findings.add(finding(f)));
    return new JsonObject()
        .put("package", packageName)
        .put("bundle", r.bundle())
        .put("digest", digest)
        .put("declaredCapability", r.declaredCapability())
        .put("evidencedCapability", r.evidencedCapability())
        .put("findings", findings)
        .put("omittedFindings", r.omittedFindings())
        .put("scores", scores)
        .put("notChecked", new JsonArray(new ArrayList<>(r.notChecked())));
  }

  static JsonObject finding(Finding f) {
    JsonObject o =
        new JsonObject()
            .put("rule", f.rule())
            .put("category", f.category().id())
            .put("severity", f.severity().id())
            .put("object", f.object())
            .put("field", f.field() == null ? "" : f.field())
            .put("message", f.message());
    if (f.removedIn() != null) {
      o.put("removedIn", f.removedIn());
    }
    return o;
  }

  /** The findings of a stored report (what a diff compares). */
  static List<Finding> findings(JsonObject report) {
    List<Finding> out = new ArrayList<>();
    for (Object o : report.getJsonArray("findings", new JsonArray())) {
      JsonObject f = (JsonObject) o;
      out.add(
          new Finding(
              f.getString("rule"),
              Category.valueOf(f.getString("category").toUpperCase(Locale.ROOT)),
              Severity.parse(f.getString("severity")),
              f.getString("object"),
              f.getString("field"),
              f.getString("message"),
              f.getString("removedIn")));
    }
    return out;
  }

  static JsonObject diff(MaturityDiff d) {
    JsonArray introduced = new JsonArray();
    d.introduced().forEach(f -> introduced.add(finding(f)));
    JsonArray resolved = new JsonArray();
    d.resolved().forEach(f -> resolved.add(finding(f)));
    return new JsonObject()
        .put("from", d.from())
        .put("to", d.to())
        .put("introduced", introduced)
        .put("resolved", resolved);
  }
}
