package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code upgrade-readiness [CLUSTER] [--version 4.18]}: which installed operators keep clusters
 * from an OpenShift minor; the fleet grouped as ready / blocked / at or past / unknown, or one
 * cluster's blockers.
 */
// no mixinStandardHelpOptions: its --version is the OpenShift minor, not the client's version
@Command(
    name = "upgrade-readiness",
    description = "Show which operators block OpenShift upgrades, for the fleet or one cluster.")
final class ReadinessCommand implements Callable<Integer> {
  private static final Pattern MINOR = Pattern.compile("[0-9]{1,4}\\.[0-9]{1,4}");
  private final CliContext ctx;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  boolean help;

  @Parameters(index = "0", arity = "0..1", paramLabel = "CLUSTER")
  String cluster;

  @Option(
      names = "--version",
      paramLabel = "MAJOR.MINOR",
      description =
          "the OpenShift minor to judge the fleet "
              + "against, e.g. 4.18 (default: each cluster's next minor)")
  String version;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      description = Output.HELP)
  Output output;

  ReadinessCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    if (version != null && !MINOR.matcher(version).matches()) {
      throw new CliException(
          ExitCodes.USAGE,
          "--version '" + version + "' is not an OpenShift major.minor such " + "as 4.18");
    }
    if (cluster != null && version != null) {
      throw new CliException(
          ExitCodes.USAGE,
          "--version applies to the fleet: leave out CLUSTER (a cluster is "
              + "judged against its next minor)");
    }
    Api api = ctx.api();
    JsonNode answer =
        cluster != null
            ? api.get(Kind.clusters.pathOf(cluster) + "/upgrade-readiness")
            : api.get("/upgrade-readiness" + (version == null ? "" : "?version=" + version));
    if (output.raw()) {
      Output.print(ctx.out(), output, answer);
      return ExitCodes.OK;
    }
    Table table = new Table(List.of("cluster", "version", "target", "readiness", "blocked-by"));
    if (cluster != null) {
      table.row(
          List.of(
              cluster,
              Kind.text(answer, "version"),
              Kind.text(answer, "target"),
              !answer.has("upgradeable")
                  ? "unknown"
                  : answer.path("upgradeable").asBoolean() ? "ready" : "blocked",
              blockers(answer.path("blocking"))));
    } else {
      for (String group : List.of("blocked", "ready", "atOrPast", "unknown")) {
        for (JsonNode entry : answer.path(group)) {
          table.row(
              List.of(
                  entry.path("cluster").asText(),
                  Kind.text(entry, "version"),
                  Kind.text(entry, "target"),
                  group.equals("atOrPast") ? "at-or-past" : group,
                  blockers(entry.path("blocking"))));
        }
      }
    }
    if (output == Output.name) {
      // the clusters in the table's order (blocked first), for scripts
      table.rows().forEach(row -> ctx.out().println("cluster/" + row.get(0)));
    } else {
      ctx.out().print(table.render());
    }
    ctx.out().flush();
    return ExitCodes.OK;
  }

  private static String blockers(JsonNode blocking) {
    List<String> parts = new ArrayList<>();
    blocking.forEach(b -> parts.add(blocker(b)));
    return String.join("; ", parts);
  }

  /** {@code etcd 0.9.2 (max 4.17, fixed in 0.9.4)}, or a hidden operator of another team. */
  static String blocker(JsonNode b) {
    String who =
        b.path("hidden").asBoolean()
            ? "an operator of another team"
            : b.path("package").asText(b.path("bundle").asText("?"))
                + " "
                + b.path("installedVersion").asText("");
    List<String> fixes = new ArrayList<>();
    b.path("unblockedBy").forEach(v -> fixes.add(v.asText()));
    return who.strip()
        + " (max "
        + b.path("maxOpenShiftVersion").asText()
        + (fixes.isEmpty() ? "" : ", fixed in " + String.join(",", fixes))
        + ")";
  }
}
