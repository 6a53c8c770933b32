package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code describe KIND NAME}: one object, its status and its recent events in a readable layout.
 * Events are the rollout's history for rollouts, the audit log's entries on the object for the
 * others (the audit log needs an admin token: without one the section says so).
 */
@Command(
    name = "describe",
    mixinStandardHelpOptions = true,
    description =
        "Show one cluster, subscription, rollout or catalog with its status and "
            + "recent events.")
final class DescribeCommand implements Callable<Integer> {
  static final int EVENTS = 10;
  private final CliContext ctx;

  @Parameters(
      index = "0",
      paramLabel = "KIND",
      description = "cluster, subscription, rollout or catalog")
  String kind;

  @Parameters(index = "1", paramLabel = "NAME", description = "its name (a rollout: its id)")
  String name;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      description =
          "table or wide "
              + "(the readable layout), name, json or yaml (the object as the API answers it); default: ${DEFAULT-VALUE}")
  Output output;

  DescribeCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    Kind k = Kind.parse(kind);
    Api api = ctx.api();
    String path = k.pathOf(name);
    JsonNode object = api.get(path);
    PrintWriter out = ctx.out();
    if (output.raw()) {
      Output.print(out, output, object);
      return ExitCodes.OK;
    }
    if (output == Output.name) {
      out.println(k.singular() + "/" + k.nameOf(object));
      out.flush();
      return ExitCodes.OK;
    }
    Instant now = Instant.now();
    switch (k) {
      case clusters -> cluster(api, path, object, out, now);
      case subscriptions -> subscription(api, path, object, out, now);
      case rollouts -> rollout(api, path, object, out);
      case catalogs -> catalog(api, path, object, out, now);
      default -> throw new IllegalStateException();
    }
    if (k != Kind.rollouts) {
      events(api, k.name() + "/" + name, out);
    }
    out.flush();
    return ExitCodes.OK;
  }

  private static void cluster(Api api, String path, JsonNode c, PrintWriter out, Instant now) {
    field(out, "Name", c.path("name").asText());
    field(out, "Status", c.path("status").asText());
    list(out, "Labels", List.of(Kind.labels(c.path("labels")).split(",")));
    field(out, "Agent", Kind.text(c, "agentVersion"));
    field(out, "Kubernetes", Kind.text(c, "kubernetesVersion"));
    field(out, "Last seen", when(c.path("lastSeen"), now));
    field(out, "Created", when(c.path("createdAt"), now));
    list(out, "Facts", Facts.lines(c.path("facts")));
    ClusterSubscriptions.print(api.get(path + "/subscriptions"), out);
    List<JsonNode> approvals = api.list(path + "/approvals");
    out.println("Approvals:");
    if (approvals.isEmpty()) {
      out.println("  <none>");
    }
    approvals.forEach(
        a ->
            out.println(
                "  "
                    + a.path("subscription").asText()
                    + ": "
                    + a.path("bundle").asText()
                    + " by "
                    + a.path("approvedBy").asText()
                    + ", "
                    + when(a.path("approvedAt"), now)));
    JsonNode readiness = api.get(path + "/upgrade-readiness");
    out.println("Upgrade readiness:");
    if (!readiness.has("upgradeable")) {
      out.println("  unknown (no OpenShift version known)");
    } else {
      out.println(
          "  "
              + readiness.path("version").asText()
              + " -> "
              + readiness.path("target").asText()
              + ": "
              + (readiness.path("upgradeable").asBoolean() ? "upgradeable" : "blocked")
              + " ("
              + readiness.path("operators").asInt()
              + " operators)");
      readiness
          .path("blocking")
          .forEach(b -> out.println("  blocked by " + ReadinessCommand.blocker(b)));
    }
  }

  private static void subscription(Api api, String path, JsonNode s, PrintWriter out, Instant now) {
    field(out, "Name", s.path("name").asText());
    field(
        out,
        "Package",
        s.path("package").asText()
            + " from catalog "
            + s.path("catalog").asText()
            + (s.hasNonNull("channel") ? ", channel " + s.path("channel").asText() : ""));
    field(out, "Namespace", s.path("namespace").asText());
    field(out, "Install mode", installMode(s));
    field(out, "Version", Kind.policy(s.path("version")));
    if (s.hasNonNull("appliedVersion")) {
      field(
          out,
          "Applied",
          Kind.policy(s.path("appliedVersion")) + " (until a rollout to the version succeeds)");
    }
    if (s.hasNonNull("rolloutStrategy")) {
      field(out, "Rollout", s.path("rolloutStrategy").toString() + " (a version change rolls out)");
    }
    field(out, "Approval", s.path("approval").asText());
    field(out, "Team", Kind.text(s, "team"));
    field(out, "Placement", s.path("placement").toString());
    field(out, "Generation", s.path("generation").asText());
    field(
        out, "Created", when(s.path("createdAt"), now) + " by " + s.path("createdBy").asText("?"));
    JsonNode status = api.get(path + "/status?limit=500");
    out.println("Status:");
    out.println("  clusters: " + status.path("clusters").asInt());
    out.println("  by version: " + Kind.counts(status.path("byVersion")));
    out.println("  by phase: " + Kind.counts(status.path("byPhase")));
    int shown = 0;
    for (JsonNode item : status.path("items")) {
      if (!"Succeeded".equals(item.path("phase").asText()) && shown++ < EVENTS) {
        out.println(
            "  "
                + item.path("cluster").asText()
                + ": "
                + item.path("phase").asText()
                + (item.hasNonNull("reason") ? " (" + item.path("reason").asText() + ")" : "")
                + (item.hasNonNull("message")
                    ? " " + item.path("message").asText().replace('\n', ' ')
                    : ""));
        for (JsonNode r : item.path("requirementStatus")) {
          if (!"Present".equals(r.path("status").asText())) {
            out.println(
                "    requirement "
                    + r.path("kind").asText()
                    + " "
                    + r.path("name").asText()
                    + ": "
                    + r.path("status").asText()
                    + (r.hasNonNull("message") ? " (" + r.path("message").asText() + ")" : ""));
          }
        }
      }
    }
    String rotateAt = null;
    String rotateOn = null;
    for (JsonNode item : status.path("items")) {
      String at = item.path("certsRotateAt").asText(null);
      if (at != null && (rotateAt == null || at.compareTo(rotateAt) < 0)) {
        rotateAt = at;
        rotateOn = item.path("cluster").asText();
      }
    }
    if (rotateAt != null) {
      out.println("  certificates: next rotation " + rotateAt + " on " + rotateOn);
    }
    JsonNode rollouts =
        api.get("/rollouts?limit=5&subscription=" + Api.q(s.path("name").asText())).path("items");
    out.println("Rollouts:");
    if (rollouts.isEmpty()) {
      out.println("  <none>");
    }
    rollouts.forEach(
        r ->
            out.println(
                "  "
                    + r.path("id").asText()
                    + " -> "
                    + r.path("targetVersion").asText()
                    + ": "
                    + r.path("state").asText()));
  }

  /**
   * The "Failed or blocked clusters" block: at most {@link #EVENTS} members, then how many more
   * there are (the rollout's counts are over every member; {@code failed} is at most one page of
   * each state).
   */
  static List<String> failedLines(JsonNode rollout, List<JsonNode> failed, String path) {
    List<String> lines = new ArrayList<>();
    lines.add("Failed or blocked clusters:");
    if (failed.isEmpty()) {
      lines.add("  <none>");
    }
    failed.stream()
        .limit(EVENTS)
        .forEach(
            c ->
                lines.add(
                    "  "
                        + c.path("name").asText()
                        + " (wave "
                        + c.path("wave").asText()
                        + ", "
                        + c.path("state").asText()
                        + "): "
                        + c.path("message").asText("").replace('\n', ' ')));
    int total =
        rollout.path("counts").path("failed").asInt()
            + rollout.path("counts").path("blocked").asInt();
    int shown = Math.min(failed.size(), EVENTS);
    if (total > shown) {
      lines.add(
          "  ... and "
              + (total - shown)
              + " more (GET "
              + path
              + "/clusters?state=Failed, ?state=Blocked)");
    }
    return lines;
  }

  private static void rollout(Api api, String path, JsonNode r, PrintWriter out) {
    out.print(RolloutView.render(r));
    List<JsonNode> failed = new ArrayList<>();
    api.get(path + "/clusters?state=Failed").path("items").forEach(failed::add);
    api.get(path + "/clusters?state=Blocked").path("items").forEach(failed::add);
    failedLines(r, failed, path).forEach(out::println);
    out.println("Events:");
    List<JsonNode> history = new ArrayList<>();
    r.path("history").forEach(history::add);
    if (history.isEmpty()) {
      out.println("  <none>");
    }
    // the API lists the history newest first
    history.stream()
        .limit(EVENTS)
        .forEach(
            h ->
                out.println(
                    "  "
                        + h.path("at").asText()
                        + "  "
                        + h.path("kind").asText()
                        + (h.hasNonNull("wave") ? "  wave " + h.path("wave").asText() : "")
                        + (h.hasNonNull("cluster") ? "  cluster " + h.path("cluster").asText() : "")
                        + (h.hasNonNull("actor") ? "  by " + h.path("actor").asText() : "")
                        + (h.hasNonNull("message")
                            ? "  " + h.path("message").asText().replace('\n', ' ')
                            : "")));
  }

  private static void catalog(Api api, String path, JsonNode c, PrintWriter out, Instant now) {
    field(out, "Name", c.path("name").asText());
    field(out, "Display name", Kind.text(c, "displayName"));
    field(out, "Priority", c.path("priority").asText());
    field(out, "Revision", Kind.text(c, "currentRevision") + " " + Kind.text(c, "currentDigest"));
    field(out, "Source", c.path("source").path("image").asText(""));
    field(out, "Last poll", when(c.path("lastPollAt"), now));
    field(out, "Last error", Kind.text(c, "lastError"));
    field(out, "Created", when(c.path("createdAt"), now));
    out.println("Revisions:");
    JsonNode revisions = api.get(path + "/revisions?limit=5").path("items");
    if (revisions.isEmpty()) {
      out.println("  <none>");
    }
    revisions.forEach(
        r ->
            out.println(
                "  "
                    + r.path("revision").asText()
                    + "  "
                    + r.path("digest").asText()
                    + "  "
                    + r.path("packages").asInt()
                    + " packages, "
                    + r.path("bundles").asInt()
                    + " bundles, "
                    + r.path("warnings").size()
                    + " warnings"
                    + (r.path("current").asBoolean() ? "  (current)" : "")));
  }

  /** The newest audit entries on {@code resource}, from at most two pages of the audit log. */
  private static void events(Api api, String resource, PrintWriter out) {
    out.println("Events:");
    List<JsonNode> found = new ArrayList<>();
    try {
      String cursor = null;
      for (int page = 0; page < 2 && found.size() < EVENTS; page++) {
        JsonNode answer =
            api.get("/audit?limit=500" + (cursor == null ? "" : "&cursor=" + Api.q(cursor)));
        for (JsonNode entry : answer.path("items")) {
          if (resource.equals(entry.path("resource").asText()) && found.size() < EVENTS) {
            found.add(entry);
          }
        }
        cursor = answer.path("nextCursor").isTextual() ? answer.path("nextCursor").asText() : null;
        if (cursor == null) {
          break;
        }
      }
    } catch (CliException e) {
      if (e.exitCode() != ExitCodes.AUTH) {
        throw e;
      }
      out.println("  (the audit log needs an admin token)");
      return;
    }
    if (found.isEmpty()) {
      out.println("  <none>");
    }
    found.forEach(
        e ->
            out.println(
                "  "
                    + e.path("at").asText()
                    + "  "
                    + e.path("action").asText()
                    + "  "
                    + e.path("outcome").asText()
                    + "  by "
                    + e.path("actor").asText()));
  }

  /** The subscription's install mode and the namespaces it watches, or that the bundle decides. */
  static String installMode(JsonNode s) {
    List<String> targets = new ArrayList<>();
    s.path("targetNamespaces").forEach(t -> targets.add(t.asText()));
    String mode = s.hasNonNull("installMode") ? s.path("installMode").asText() : null;
    if (mode == null) {
      return targets.isEmpty()
          ? "decided by the bundle (AllNamespaces where supported, else OwnNamespace)"
          : "targets " + String.join(",", targets);
    }
    return targets.isEmpty() ? mode : mode + " (targets " + String.join(",", targets) + ")";
  }

  static void field(PrintWriter out, String key, String value) {
    out.println(
        String.format("%-14s%s", key + ":", value == null || value.isEmpty() ? "<none>" : value));
  }

  private static void list(PrintWriter out, String key, List<String> values) {
    List<String> shown = values.stream().filter(v -> !v.isEmpty()).toList();
    if (shown.isEmpty()) {
      field(out, key, "");
      return;
    }
    field(out, key, shown.get(0));
    shown.stream().skip(1).forEach(v -> out.println(" ".repeat(14) + v));
  }

  private static String when(JsonNode timestamp, Instant now) {
    String age = Kind.age(timestamp, now);
    return age.isEmpty() ? "" : timestamp.asText() + " (" + age + " ago)";
  }
}
