package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The preview's impact report as text (pure): the placed clusters left out with their reasons, per
 * installed version the RBAC, CRD, webhook and API changes to the target, then the totals, then the
 * first clusters with their hops, affected custom resources, OpenShift effect and window. {@code -o
 * json|yaml} prints the whole answer instead (the change ticket's export).
 */
final class ImpactView {
  /** Clusters shown in the table; {@code -o json} lists them all. */
  static final int CLUSTER_ROWS = 20;

  /** Excluded clusters named one a line up to this many; past it, a count per reason. */
  static final int EXCLUDED_ROWS = 10;

  private ImpactView() {}

  static String render(JsonNode preview) {
    JsonNode impact = preview.path("impact");
    JsonNode totals = impact.path("totals");
    StringBuilder out = new StringBuilder();
    out.append("Preview: ")
        .append(preview.path("subscription").asText())
        .append(" -> ")
        .append(preview.path("targetVersion").asText())
        .append("   ")
        .append(totals.path("clusters").asInt())
        .append(" clusters in ")
        .append(preview.path("waves").size())
        .append(" waves, at most ")
        .append(totals.path("maxHops").asInt())
        .append(" hops\n");
    out.append(excluded(preview.path("excluded")));
    for (JsonNode t : impact.path("transitions")) {
      out.append("\nFrom ")
          .append(
              t.path("fromVersion").isNull() ? "nothing installed" : t.path("fromVersion").asText())
          .append(" (")
          .append(t.path("clusters").asInt())
          .append(" clusters): ")
          .append(t.path("fromBundle").asText("-"))
          .append(" -> ")
          .append(t.path("toBundle").asText("-"))
          .append('\n');
      if (t.has("unavailable")) {
        out.append("  not compared: ").append(t.path("unavailable").asText()).append('\n');
        continue;
      }
      grants(out, "+", t.path("rbac").path("added"));
      grants(out, "-", t.path("rbac").path("removed"));
      for (JsonNode c : t.path("crds").path("added")) {
        out.append(
            String.format(
                "  CRD  + %s (%s) %s%n",
                c.path("name").asText(), c.path("kind").asText(), join(c.path("versions"))));
      }
      for (JsonNode c : t.path("crds").path("removed")) {
        out.append(
            String.format(
                "  CRD  - %s (%s) %s%n",
                c.path("name").asText(), c.path("kind").asText(), join(c.path("versions"))));
      }
      for (JsonNode c : t.path("crds").path("changed")) {
        List<String> what = new ArrayList<>();
        if (!c.path("versionsAdded").isEmpty()) {
          what.add("versions +" + join(c.path("versionsAdded")));
        }
        if (!c.path("versionsRemoved").isEmpty()) {
          what.add("versions -" + join(c.path("versionsRemoved")));
        }
        if (!c.path("schemaChanged").isEmpty()) {
          what.add("schema " + join(c.path("schemaChanged")));
        }
        out.append(
            String.format(
                "  CRD  ~ %s %s%s%n",
                c.path("name").asText(),
                String.join(", ", what),
                c.path("breaking").asBoolean() ? "  BREAKING" : ""));
      }
      for (String kind : new String[] {"added", "removed", "changed"}) {
        for (JsonNode w : t.path("webhooks").path(kind)) {
          out.append(
              String.format(
                  "  Webhook %s %s (%s)%s%n",
                  sign(kind),
                  w.path("name").asText(),
                  w.path("type").asText(),
                  w.has("fields") ? " " + join(w.path("fields")) : ""));
        }
      }
      for (JsonNode a : t.path("apis").path("removed")) {
        out.append("  API  - ").append(api(a)).append('\n');
      }
      for (JsonNode a : t.path("apis").path("requires")) {
        if (a.path("new").asBoolean()) {
          out.append("  Needs  ").append(api(a)).append('\n');
        }
      }
      for (String list : new String[] {"added", "removed"}) {
        if (t.path("rbac").path(list + "Truncated").asBoolean()) {
          out.append("  (rbac ")
              .append(list)
              .append(": ")
              .append(t.path("rbac").path(list + "Count").asInt())
              .append(" grants, cut; -o json has the report)\n");
        }
      }
    }
    JsonNode cr = totals.path("customResources");
    out.append("\nCustom resources affected: ")
        .append(cr.path("affected").asLong())
        .append(" on ")
        .append(cr.path("clustersAffected").asInt())
        .append(" clusters (")
        .append(cr.path("breaking").asLong())
        .append(" by breaking changes)\n");
    out.append("OpenShift: ").append(counts(totals.path("openShift"))).append('\n');
    JsonNode w = totals.path("windows");
    out.append("Windows: ")
        .append(w.path("openNow").asInt())
        .append(" open now, ")
        .append(w.path("later").asInt())
        .append(" later, ")
        .append(w.path("noWindow").asInt())
        .append(" with no window within 400 days\n");
    out.append("Risky edges: ")
        .append(
            impact.path("riskyEdges").path("evaluated").asBoolean()
                ? totals.path("riskyEdges").path("clustersAtRisk").asInt() + " clusters at risk"
                : "not evaluated")
        .append('\n');
    Table table =
        new Table(List.of("CLUSTER", "WAVE", "FROM", "HOPS", "CRS", "OPENSHIFT", "WINDOW"));
    int n = 0;
    for (JsonNode c : impact.path("clusters")) {
      if (n++ == CLUSTER_ROWS) {
        break;
      }
      JsonNode window = c.path("window");
      table.row(
          List.of(
              c.path("name").asText(),
              c.path("wave").asText(),
              c.path("fromVersion").asText("-"),
              String.valueOf(c.path("hops").asInt()),
              String.valueOf(c.path("customResources").path("total").asLong()),
              c.path("openShift").path("effect").asText(),
              window.path("openNow").asBoolean()
                  ? "now"
                  : window.path("nextOpening").asText("none")));
    }
    if (!table.rows().isEmpty()) {
      out.append('\n').append(table.render());
    }
    int total = totals.path("clusters").asInt();
    if (total > table.rows().size()) {
      out.append("(")
          .append(total - table.rows().size())
          .append(" more clusters: -o json lists them)\n");
    }
    return out.toString();
  }

  /**
   * The placed clusters that take no part (the preview's {@code excluded}): each with its reason,
   * or past {@link #EXCLUDED_ROWS} the number of clusters per reason, most first; empty when none.
   */
  static String excluded(JsonNode excluded) {
    int n = excluded.size();
    if (n == 0) {
      return "";
    }
    StringBuilder out =
        new StringBuilder("Excluded: ")
            .append(n)
            .append(n == 1 ? " placed cluster takes" : " placed clusters take")
            .append(" no part");
    Table table;
    if (n <= EXCLUDED_ROWS) {
      out.append(":\n");
      table = new Table(List.of("CLUSTER", "REASON"));
      excluded.forEach(e -> table.row(List.of(e.path("name").asText(), e.path("reason").asText())));
    } else {
      out.append(" (-o json names each):\n");
      Map<String, Integer> byReason = new LinkedHashMap<>();
      excluded.forEach(e -> byReason.merge(e.path("reason").asText(), 1, Integer::sum));
      table = new Table(List.of("CLUSTERS", "REASON"));
      byReason.entrySet().stream()
          .sorted(
              Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                  .thenComparing(Map.Entry.comparingByKey()))
          .forEach(e -> table.row(List.of(String.valueOf(e.getValue()), e.getKey())));
    }
    table.render().lines().forEach(line -> out.append("  ").append(line).append('\n'));
    return out.toString();
  }

  private static void grants(StringBuilder out, String sign, JsonNode grants) {
    for (JsonNode g : grants) {
      String what =
          g.has("nonResourceURL")
              ? g.path("nonResourceURL").asText()
              : (g.path("apiGroup").asText().isEmpty() ? "" : g.path("apiGroup").asText() + "/")
                  + g.path("resource").asText()
                  + (g.has("resourceNames") ? " " + join(g.path("resourceNames")) : "");
      out.append(
          String.format(
              "  RBAC %s %-9s %s: %s%n",
              sign, g.path("scope").asText(), what, join(g.path("verbs"))));
    }
  }

  private static String api(JsonNode a) {
    return a.has("name")
        ? a.path("name").asText()
            + " "
            + a.path("version").asText()
            + " ("
            + a.path("kind").asText()
            + ")"
        : a.path("group").asText()
            + "/"
            + a.path("version").asText()
            + " "
            + a.path("kind").asText();
  }

  private static String sign(String kind) {
    return switch (kind) {
      case "added" -> "+";
      case "removed" -> "-";
      default -> "~";
    };
  }

  private static String counts(JsonNode byName) {
    List<String> parts = new ArrayList<>();
    byName.fields().forEachRemaining(e -> parts.add(e.getKey() + " " + e.getValue().asInt()));
    return parts.isEmpty() ? "-" : String.join(", ", parts);
  }

  private static String join(JsonNode array) {
    List<String> parts = new ArrayList<>();
    array.forEach(v -> parts.add(v.asText()));
    return String.join(",", parts);
  }
}
