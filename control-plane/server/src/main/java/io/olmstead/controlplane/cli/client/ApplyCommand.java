package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code apply -f FILE|DIR [--dry-run]}: makes catalogs, subscriptions and rollouts what the files
 * say. Catalogs go first, then subscriptions, then rollouts; each object is read, and written (PUT
 * with If-Match) only when a field the file gives differs. A rollout is created only when none of
 * that subscription to that version exists.
 */
@Command(
    name = "apply",
    mixinStandardHelpOptions = true,
    description = "Create or update catalogs, subscriptions and rollouts from YAML files.")
final class ApplyCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Option(
      names = {"-f", "--filename"},
      required = true,
      paramLabel = "FILE|DIR",
      description = "a YAML file, or a directory of *.yaml / *.yml")
  List<Path> paths;

  @Option(
      names = "--dry-run",
      description = "print what would be created, changed or left unchanged; change nothing")
  boolean dryRun;

  ApplyCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    List<Path> files = new ArrayList<>();
    paths.forEach(p -> files.addAll(ApplyDocuments.files(p)));
    List<ApplyDocuments.Doc> docs = new ArrayList<>(ApplyDocuments.read(files));
    docs.sort(
        Comparator.comparingInt(
            d -> ApplyDocuments.KINDS.indexOf(d.kind()))); // stable: file order kept
    Api api = ctx.api();
    String suffix = dryRun ? " (dry run)" : "";
    for (ApplyDocuments.Doc doc : docs) {
      String outcome = doc.kind().equals("Rollout") ? rollout(api, doc) : object(api, doc);
      ctx.out().println(doc.label() + " " + outcome + suffix);
      ctx.out().flush();
    }
    return ExitCodes.OK;
  }

  /** A catalog or subscription: PUT when absent or when a field the file gives differs. */
  private String object(Api api, ApplyDocuments.Doc doc) {
    String path =
        (doc.kind().equals("Catalog") ? "/catalogs/" : "/subscriptions/") + Api.seg(doc.name());
    JsonNode current;
    try {
      current = api.get(path);
    } catch (CliException e) {
      if (e.exitCode() != ExitCodes.NOT_FOUND) {
        throw e;
      }
      current = null;
    }
    if (current == null) {
      if (!dryRun) {
        put(api, doc, path, Map.of());
      }
      return dryRun ? "would be created" : "created";
    }
    List<String> changed = SpecDiff.changedFields(doc.spec(), current);
    if (changed.isEmpty()) {
      return "unchanged";
    }
    String started = "";
    if (!dryRun) {
      JsonNode after =
          put(
              api,
              doc,
              path,
              Map.of("If-Match", "\"" + current.path("resourceVersion").asText() + "\""));
      // a subscription with a rolloutStrategy whose version changed: the server started a rollout
      started =
          after.path("rollout").isTextual()
              ? " (rollout " + after.path("rollout").asText() + " started)"
              : "";
    }
    return (dryRun ? "would change " : "changed ")
        + String.join(", ", SpecDiff.describe(changed, doc.spec(), current))
        + started;
  }

  private static JsonNode put(
      Api api, ApplyDocuments.Doc doc, String path, Map<String, String> headers) {
    try {
      return api.exchange("PUT", path, doc.spec(), headers).json();
    } catch (CliException e) {
      throw new CliException(
          e.exitCode(), doc.file() + ":" + doc.line() + ": " + doc.label() + ": " + e.getMessage());
    }
  }

  /** A rollout: created unless one of this subscription to this version exists (in any state). */
  private String rollout(Api api, ApplyDocuments.Doc doc) {
    String subscription = doc.spec().path("subscription").asText();
    String target = doc.spec().path("targetVersion").asText();
    for (JsonNode existing : api.list("/rollouts?subscription=" + Api.q(subscription))) {
      if (target.equals(existing.path("targetVersion").asText())) {
        return "unchanged ("
            + existing.path("id").asText()
            + ", "
            + existing.path("state").asText()
            + ")";
      }
    }
    if (dryRun) {
      return "would be created";
    }
    try {
      return "created (" + api.post("/rollouts", doc.spec()).path("id").asText() + ")";
    } catch (CliException e) {
      throw new CliException(
          e.exitCode(), doc.file() + ":" + doc.line() + ": " + doc.label() + ": " + e.getMessage());
    }
  }
}
