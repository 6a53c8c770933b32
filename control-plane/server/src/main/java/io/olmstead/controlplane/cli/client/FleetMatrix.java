package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code get matrix} (or {@code get subscriptions --clusters}): the fleet matrix ({@code GET
 * /fleet/matrix}), one row per cluster and one column per subscription, a cell {@code VERSION} when
 * it is Succeeded at its target, else {@code VERSION PHASE} ({@code -} where the cluster does not
 * run it); {@code wide} adds the labels and each cell's reason. Follows every page.
 */
final class FleetMatrix {
  private FleetMatrix() {}

  /** Every page of the matrix for {@code query} (selector, subscriptions, sort), as one answer. */
  static ObjectNode fetch(Api api, String query) {
    ArrayNode items = Api.JSON.createArrayNode();
    JsonNode columns = Api.JSON.createArrayNode();
    String cursor = null;
    for (int page = 0; page < Api.MAX_PAGES; page++) {
      JsonNode answer =
          api.get(
              "/fleet/matrix?limit=500"
                  + query
                  + (cursor == null ? "" : "&cursor=" + Api.q(cursor)));
      columns = answer.path("subscriptions");
      answer.path("items").forEach(items::add);
      cursor = answer.path("nextCursor").isTextual() ? answer.path("nextCursor").asText() : null;
      if (cursor == null) {
        ObjectNode out = Api.JSON.createObjectNode();
        out.set("subscriptions", columns);
        out.set("items", items);
        return out;
      }
    }
    throw new CliException(
        ExitCodes.ERROR,
        "more than " + Api.MAX_PAGES * 500 + " clusters in the matrix: narrow " + "it with -l");
  }

  static void print(PrintWriter out, PrintWriter err, Output output, ObjectNode matrix) {
    if (output.raw()) {
      Output.print(out, output, matrix);
      return;
    }
    JsonNode items = matrix.path("items");
    if (output == Output.name) {
      items.forEach(item -> out.println("cluster/" + item.path("cluster").asText()));
      out.flush();
      return;
    }
    if (items.isEmpty()) {
      err.println("No clusters found.");
      err.flush();
      return;
    }
    out.print(table(matrix, output == Output.wide).render());
    out.flush();
  }

  /**
   * The table: cluster, status, a column per subscription, and in {@code wide} the labels and the
   * reasons.
   */
  static Table table(JsonNode matrix, boolean wide) {
    List<String> subs = new ArrayList<>();
    matrix.path("subscriptions").forEach(s -> subs.add(s.path("name").asText()));
    Table table = new Table(headers(subs, wide));
    for (JsonNode item : matrix.path("items")) {
      String name = item.path("cluster").asText();
      List<String> row =
          new ArrayList<>(
              List.of(wide ? name : Output.fit(name, Kind.NAME_WIDTH), Kind.text(item, "status")));
      List<String> reasons = new ArrayList<>();
      for (String sub : subs) {
        JsonNode cell = item.path("cells").path(sub);
        row.add(cell(cell));
        String reason = cell.path("reason").path("message").asText("");
        if (!reason.isEmpty()) {
          reasons.add(sub + ": " + reason);
        }
      }
      if (wide) {
        row.add(Kind.labels(item.path("labels")));
        row.add(String.join("; ", reasons));
      }
      table.row(row);
    }
    return table;
  }

  /**
   * The table's headers: cluster, status, the subscriptions, and in {@code wide} the labels and the
   * reasons.
   */
  static List<String> headers(List<String> subs, boolean wide) {
    List<String> headers = new ArrayList<>(List.of("cluster", "status"));
    headers.addAll(subs);
    if (wide) {
      headers.add("labels");
      headers.add("reasons");
    }
    return headers;
  }

  /**
   * {@code 0.9.4}, {@code 0.9.2 Failed}, {@code none RequiresApproval}, or {@code -} for no cell.
   */
  static String cell(JsonNode cell) {
    if (cell.isMissingNode() || cell.isNull()) {
      return "-";
    }
    String version =
        cell.path("installedVersion").isTextual() ? cell.path("installedVersion").asText() : "none";
    String phase = Kind.text(cell, "phase");
    boolean atTarget =
        "Succeeded".equals(phase)
            && (cell.path("targetVersion").isNull()
                || cell.path("targetVersion").isMissingNode()
                || version.equals(cell.path("targetVersion").asText()));
    return atTarget ? version : version + " " + (phase.isEmpty() ? "Unknown" : phase);
  }
}
