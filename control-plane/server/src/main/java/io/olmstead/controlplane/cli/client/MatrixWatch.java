package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code get matrix --watch}: prints the matrix, then, on each refresh, the rows (clusters) whose
 * cells changed and a line for each cluster gone; the whole table again, with its header, when the
 * columns changed (a subscription came or went). {@code -o json|yaml} prints each changed row as an
 * object, {@code -o name} its name.
 */
final class MatrixWatch {
  private final PrintWriter out;
  private final Output output;
  private final boolean wide;
  private int[] widths = new int[0];
  private List<String> columns = List.of();
  private Map<String, String> shown = Map.of();

  MatrixWatch(PrintWriter out, Output output) {
    this.out = out;
    this.output = output;
    this.wide = output == Output.wide;
  }

  /**
   * Prints every row ({@code first}, or when the columns changed) or those that changed since the
   * last call.
   */
  void show(ObjectNode matrix, boolean first) {
    Table table = FleetMatrix.table(matrix, wide);
    List<String> headers = new ArrayList<>();
    matrix.path("subscriptions").forEach(s -> headers.add(s.path("name").asText()));
    boolean all = first || !headers.equals(columns);
    if (all) {
      widths = new int[FleetMatrix.headers(headers, wide).size()];
    }
    Map<String, String> compared = new LinkedHashMap<>();
    Map<String, List<String>> rows = new LinkedHashMap<>();
    Map<String, JsonNode> items = new LinkedHashMap<>();
    int i = 0;
    for (JsonNode item : matrix.path("items")) {
      String name = item.path("cluster").asText();
      List<String> row = table.rows().get(i++);
      rows.put(name, row);
      items.put(name, item);
      compared.put(
          name,
          output.raw() || output == Output.name ? item.toString() : String.join("\u0000", row));
    }
    List<String> changed =
        all ? new ArrayList<>(compared.keySet()) : WatchChanges.changed(shown, compared);
    List<String> gone = all ? List.of() : WatchChanges.gone(shown, compared);
    shown = compared;
    columns = headers;
    if (output.raw()) {
      changed.forEach(
          name -> {
            if (output == Output.yaml && !first) {
              out.println("---");
            }
            Output.print(out, output, items.get(name));
          });
    } else if (output == Output.name) {
      changed.forEach(name -> out.println("cluster/" + name));
    } else if (!changed.isEmpty()) {
      Table some = new Table(FleetMatrix.headers(headers, wide));
      changed.forEach(name -> some.row(rows.get(name)));
      out.print(some.render(all, widths));
    }
    gone.forEach(name -> out.println("cluster/" + name + " gone"));
    out.flush();
  }
}
