package io.olmstead.controlplane.cli.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A kubectl-style table: upper-case headers, columns left-aligned and three spaces apart, no
 * trailing blanks.
 */
public final class Table {
  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  public Table(List<String> headers) {
    this.headers = List.copyOf(headers);
  }

  /** Adds a row; null or empty cells show as {@code <none>}, line breaks as spaces. */
  public Table row(List<String> cells) {
    if (cells.size() != headers.size()) {
      throw new IllegalArgumentException(
          cells.size() + " cells for " + headers.size() + " columns");
    }
    List<String> clean = new ArrayList<>();
    for (String cell : cells) {
      clean.add(cell == null || cell.isEmpty() ? "<none>" : cell.replaceAll("[\\r\\n\\t]+", " "));
    }
    rows.add(clean);
    return this;
  }

  /** The rows added, as cleaned for printing. */
  public List<List<String>> rows() {
    return List.copyOf(rows);
  }

  /** The headers and the rows. */
  public String render() {
    return render(true, new int[headers.size()]);
  }

  /**
   * The rows, with the header line when {@code header}; each column at least as wide as {@code
   * atLeast} says (so rows printed later by {@code get --watch} line up under the first table), and
   * returns the widths used there.
   */
  public String render(boolean header, int[] atLeast) {
    int[] widths = widths(atLeast);
    System.arraycopy(widths, 0, atLeast, 0, widths.length);
    StringBuilder out = new StringBuilder();
    if (header) {
      line(out, headers.stream().map(h -> h.toUpperCase(Locale.ROOT)).toList(), widths);
    }
    rows.forEach(row -> line(out, row, widths));
    return out.toString();
  }

  private int[] widths(int[] atLeast) {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < headers.size(); i++) {
      widths[i] = Math.max(atLeast[i], headers.get(i).length());
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    return widths;
  }

  private static void line(StringBuilder out, List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      line.append(cells.get(i));
      if (i < cells.size() - 1) {
        line.append(" ".repeat(widths[i] - cells.get(i).length() + 3));
      }
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
