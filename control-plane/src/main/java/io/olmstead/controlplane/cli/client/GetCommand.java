package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.controlplane.clusters.LabelSelector;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code get KIND [NAME] [-l selector] [-o table|json|yaml]}: lists as kubectl does, following the API's pages. */
@Command(name = "get", description = "List clusters, subscriptions, rollouts or catalogs (or show one by name).")
final class GetCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Parameters(index = "0", paramLabel = "KIND", description = "clusters, subscriptions, rollouts or catalogs")
  String kind;

  @Parameters(index = "1", arity = "0..1", paramLabel = "NAME", description = "one object (a rollout by its id)")
  String name;

  @Option(names = {"-l", "--selector"}, paramLabel = "SELECTOR",
      description = "a label selector, e.g. env=prod,region in (eu,us)")
  String selector;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
      description = "table, json or yaml (default: ${DEFAULT-VALUE})")
  Output output;

  GetCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    Kind k = Kind.parse(kind);
    if (name != null && selector != null) {
      throw new CliException(ExitCodes.USAGE, "give a NAME or -l, not both");
    }
    LabelSelector filter = selector == null ? LabelSelector.everything() : Kind.selector(selector);
    Api api = ctx.api();
    List<JsonNode> items;
    if (name != null) {
      items = List.of(api.get(k.path + "/" + Api.seg(name)));
    } else if (k.serverSelector && selector != null) {
      items = api.list(k.path + "?selector=" + Api.q(selector));
    } else {
      items = api.list(k.path).stream().filter(item -> filter.matches(k.labelsOf(item))).toList();
    }
    if (output != Output.table) {
      Output.print(ctx.out(), output, name != null ? items.get(0) : Output.itemsOf(items));
      return ExitCodes.OK;
    }
    if (items.isEmpty()) {
      ctx.err().println("No " + k.name() + " found" + (selector == null ? "." : " matching " + selector + "."));
      return ExitCodes.OK;
    }
    Table table = new Table(k.columns);
    Instant now = Instant.now();
    for (JsonNode item : items) {
      // subscriptions: the totals by version are in their status (one small request each)
      JsonNode extra = k == Kind.subscriptions ? api.get("/subscriptions/" + Api.seg(item.path("name").asText())
          + "/status?limit=1") : null;
      table.row(k.row(item, extra, now));
    }
    ctx.out().print(table.render());
    ctx.out().flush();
    return ExitCodes.OK;
  }
}
