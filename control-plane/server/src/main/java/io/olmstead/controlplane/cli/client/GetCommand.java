package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.controlplane.selector.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code get KIND [NAME] [-l selector] [-o FORMAT] [-w]}: lists as kubectl does, following the
 * API's pages; with {@code -w} it then prints each object again when it changes ({@link
 * EventWatch}) until {@code --timeout}. {@code get matrix [SUBSCRIPTION,...]} (or {@code get
 * subscriptions --clusters}) prints the fleet matrix ({@link FleetMatrix}); with {@code -w}, the
 * rows that change ({@link MatrixWatch}) until {@code --timeout}.
 */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description =
        "List clusters, subscriptions, rollouts or catalogs (or show one by name); `get matrix` (or "
            + "`get subscriptions --clusters`) shows each cluster's version and phase of each subscription.")
final class GetCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Parameters(
      index = "0",
      paramLabel = "KIND",
      description = "clusters, subscriptions, rollouts, catalogs or matrix")
  String kind;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "NAME",
      description =
          "one object (a rollout by its id); for the matrix, its subscriptions, comma-separated")
  String name;

  @Option(
      names = "--clusters",
      description =
          "with subscriptions: the fleet matrix, a row per cluster and a column "
              + "per subscription (as get matrix)")
  boolean clusters;

  @Option(
      names = "--sort",
      paramLabel = "ORDER",
      description =
          "the matrix's order: name (default), "
              + "version:SUBSCRIPTION or phase:SUBSCRIPTION; a leading - reverses")
  String sort;

  @Option(
      names = {"-l", "--selector"},
      paramLabel = "SELECTOR",
      description = "a label selector, e.g. env=prod,region in (eu,us)")
  String selector;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      description = Output.HELP)
  Output output;

  @Option(
      names = {"-w", "--watch"},
      description =
          "after the list, print each object again when it changes "
              + "(follows the API's event stream) until --timeout passes")
  boolean watch;

  @Option(
      names = "--timeout",
      defaultValue = "PT1H",
      paramLabel = "DURATION",
      description =
          "how long --watch follows, ISO-8601 (default: ${DEFAULT-VALUE}); it then exits 0")
  Duration timeout;

  GetCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    if ("matrix".equalsIgnoreCase(kind) || clusters) {
      return matrix();
    }
    Kind k = Kind.parse(kind);
    if (name != null && selector != null) {
      throw new CliException(ExitCodes.USAGE, "give a NAME or -l, not both");
    }
    if (watch && (timeout.isNegative() || timeout.isZero())) {
      throw new CliException(
          ExitCodes.USAGE, "--timeout must be a positive ISO-8601 duration such as PT10M");
    }
    LabelSelector filter = selector == null ? LabelSelector.everything() : Kind.selector(selector);
    Api api = ctx.api();
    List<JsonNode> items = fetch(api, k, filter);
    if (!watch) {
      print(k, api, items, true);
      return ExitCodes.OK;
    }
    Instant deadline = Instant.now().plus(timeout);
    Printer printer = new Printer(k, api);
    printer.show(items, true);
    EventWatch.follow(
        ctx, api, k, name, deadline, () -> printer.show(fetch(api, k, filter), false));
    return ExitCodes.OK;
  }

  private Integer matrix() {
    if (!"matrix".equalsIgnoreCase(kind) && Kind.parse(kind) != Kind.subscriptions) {
      throw new CliException(ExitCodes.USAGE, "--clusters goes with get subscriptions");
    }
    if (watch && (timeout.isNegative() || timeout.isZero())) {
      throw new CliException(
          ExitCodes.USAGE, "--timeout must be a positive ISO-8601 duration such as PT10M");
    }
    if (selector != null) {
      Kind.selector(selector);
    }
    String query =
        (selector == null ? "" : "&selector=" + Api.q(selector))
            + (name == null ? "" : "&subscriptions=" + Api.q(name))
            + (sort == null ? "" : "&sort=" + Api.q(sort));
    Api api = ctx.api();
    if (!watch) {
      FleetMatrix.print(ctx.out(), ctx.err(), output, FleetMatrix.fetch(api, query));
      return ExitCodes.OK;
    }
    Instant deadline = Instant.now().plus(timeout);
    MatrixWatch printer = new MatrixWatch(ctx.out(), output);
    printer.show(FleetMatrix.fetch(api, query), true);
    EventWatch.follow(
        ctx,
        api,
        (type, id) -> EventWatch.changesTheMatrix(type),
        deadline,
        () -> printer.show(FleetMatrix.fetch(api, query), false));
    return ExitCodes.OK;
  }

  private List<JsonNode> fetch(Api api, Kind k, LabelSelector filter) {
    if (name != null) {
      return List.of(api.get(k.pathOf(name)));
    } else if (k.serverSelector && selector != null) {
      return api.list(k.path + "?selector=" + Api.q(selector));
    }
    return api.list(k.path).stream().filter(item -> filter.matches(k.labelsOf(item))).toList();
  }

  private void print(Kind k, Api api, List<JsonNode> items, boolean emptyNotice) {
    if (output.raw()) {
      Output.print(ctx.out(), output, name != null ? items.get(0) : Output.itemsOf(items));
      return;
    }
    if (items.isEmpty() && emptyNotice) {
      ctx.err()
          .println(
              "No "
                  + k.name()
                  + " found"
                  + (selector == null ? "." : " matching " + selector + "."));
      ctx.err().flush();
      return;
    }
    new Printer(k, api).show(items, true);
  }

  /** Rows by object name; what a later {@link #show} compares to decide what changed. */
  private final class Printer {
    private final Kind kind;
    private final Api api;
    private final int[] widths;
    private Map<String, String> shown = Map.of();

    Printer(Kind kind, Api api) {
      this.kind = kind;
      this.api = api;
      this.widths = new int[kind.columns(output).size()];
    }

    /**
     * Prints every object ({@code first}) or those that changed since, and a line for each one
     * gone.
     */
    void show(List<JsonNode> items, boolean first) {
      Instant now = Instant.now();
      Map<String, JsonNode> byName = new LinkedHashMap<>();
      Map<String, List<String>> rows = new LinkedHashMap<>();
      Map<String, String> compared = new LinkedHashMap<>();
      for (JsonNode item : items) {
        String key = kind.nameOf(item);
        // subscriptions: the totals by version are in their status (one small request each)
        JsonNode extra =
            kind == Kind.subscriptions && !output.raw()
                ? api.get("/subscriptions/" + Api.seg(key) + "/status?limit=1")
                : null;
        List<String> row =
            output == Output.name || output.raw() ? List.of() : kind.row(item, extra, now, output);
        byName.put(key, item);
        rows.put(key, row);
        compared.put(
            key,
            output.raw() || output == Output.name
                ? item.toString()
                : WatchChanges.withoutAges(kind.columns(output), row));
      }
      List<String> changed =
          first ? new ArrayList<>(compared.keySet()) : WatchChanges.changed(shown, compared);
      List<String> gone = first ? List.of() : WatchChanges.gone(shown, compared);
      shown = compared;
      if (output.raw()) {
        changed.forEach(
            key -> {
              if (output == Output.yaml && !first) {
                ctx.out().println("---");
              }
              Output.print(ctx.out(), output, byName.get(key));
            });
      } else if (output == Output.name) {
        changed.forEach(key -> ctx.out().println(kind.singular() + "/" + key));
      } else if (!changed.isEmpty()) {
        Table table = new Table(kind.columns(output));
        changed.forEach(key -> table.row(rows.get(key)));
        ctx.out().print(table.render(first, widths));
      }
      if (!output.raw()) {
        gone.forEach(key -> ctx.out().println(kind.singular() + "/" + key + " deleted"));
      }
      ctx.out().flush();
    }
  }
}
