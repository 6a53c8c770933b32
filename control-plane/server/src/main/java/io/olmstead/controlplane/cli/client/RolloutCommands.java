package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rollout status ID [--watch]}, {@code rollout preview SUBSCRIPTION VERSION [--strategy
 * JSON] [-o json|yaml]}, {@code rollout pause|resume|abort|rollback|promote ID} and {@code rollout
 * retry ID|SUBSCRIPTION}.
 */
final class RolloutCommands {
  static final String[] ACTIONS = {"pause", "resume", "abort", "rollback", "promote"};

  private RolloutCommands() {}

  static CommandLine command(CliContext ctx) {
    CommandLine rollout = new CommandLine(new Group());
    rollout.addSubcommand(new Status(ctx));
    rollout.addSubcommand(new Retry(ctx));
    rollout.addSubcommand(new Preview(ctx));
    for (String action : ACTIONS) {
      rollout.addSubcommand(
          action, new CommandLine(new Action(ctx, action)).setCommandName(action));
    }
    return rollout;
  }

  @Command(
      name = "rollout",
      description = "Follow or steer a rollout.",
      synopsisSubcommandLabel = "COMMAND",
      mixinStandardHelpOptions = true)
  static final class Group implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "a rollout command is required (status, preview, "
              + "pause, resume, abort, rollback, promote or retry)");
    }
  }

  /**
   * Progress per wave; the exit code says how the rollout stands ({@link RolloutView#exitCode}).
   */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = {
        "Show a rollout's progress, one bar per "
            + "wave, then each cluster not moving with its reason (WaitingForApproval, Frozen, OutsideWindow, EdgeAtRisk, "
            + "PreflightBlocked).",
        "Exit 0 Succeeded (or Progressing without --watch), 4 ended otherwise (Failed, "
            + "Aborted, RolledBack), 6 Paused, 7 --watch timed out."
      })
  static final class Status implements Callable<Integer> {
    private static final int CLUSTERS_PAGE = 500;
    private static final int MAX_REASONS = 20;
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Option(
        names = {"-w", "--watch"},
        description = "poll until the rollout ends or pauses (or --timeout passes)")
    boolean watch;

    @Option(
        names = "--timeout",
        defaultValue = "PT1H",
        paramLabel = "DURATION",
        description = "how long --watch waits at most, ISO-8601 (default: ${DEFAULT-VALUE})")
    Duration timeout;

    Status(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() throws InterruptedException {
      Api api = ctx.api();
      String path = Kind.rollouts.pathOf(id);
      JsonNode rollout = api.get(path);
      String shown = render(api, path, rollout);
      ctx.out().print(shown);
      ctx.out().flush();
      Instant deadline = Instant.now().plus(timeout);
      while (watch && !RolloutView.watchStops(rollout)) {
        if (Instant.now().isAfter(deadline)) {
          throw new CliException(
              ExitCodes.TIMEOUT,
              "rollout "
                  + id
                  + " is still "
                  + rollout.path("state").asText()
                  + " after "
                  + timeout
                  + ": run olmstead rollout status "
                  + id
                  + " --watch again");
        }
        Thread.sleep(ctx.pollInterval().toMillis());
        rollout = api.get(path);
        String now = render(api, path, rollout);
        if (!now.equals(shown)) {
          ctx.out().print(now);
          ctx.out().flush();
          shown = now;
        }
      }
      int code = RolloutView.exitCode(rollout);
      if (code != ExitCodes.OK) {
        String state = rollout.path("state").asText();
        ctx.err()
            .println(
                "olmstead: rollout "
                    + id
                    + (state.equals("Paused")
                        ? " is Paused: run olmstead rollout "
                            + "resume "
                            + id
                            + " (or promote, abort, rollback)"
                        : " ended " + state));
      }
      return code;
    }

    /**
     * The waves, then the clusters not moving for a known reason (of the first page of clusters),
     * as the API says.
     */
    private static String render(Api api, String path, JsonNode rollout) {
      return RolloutView.render(rollout)
          + RolloutView.reasons(api.get(path + "/clusters?limit=" + CLUSTERS_PAGE), MAX_REASONS);
    }
  }

  /** The plan and impact report of a rollout that is not started: POST /rollouts/preview. */
  @Command(
      name = "preview",
      mixinStandardHelpOptions = true,
      description = {
        "Show what a rollout to VERSION would "
            + "do before anything moves: per installed version the RBAC, CRD, webhook and API changes, the custom resources "
            + "they touch, each cluster's hops, OpenShift effect and window.",
        "-o json or yaml prints the whole report " + "(the export for a change ticket)."
      })
  static final class Preview implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "SUBSCRIPTION")
    String subscription;

    @Parameters(index = "1", paramLabel = "VERSION")
    String version;

    @Option(
        names = "--strategy",
        paramLabel = "JSON",
        description = "the rollout strategy, as in POST /rollouts")
    String strategy;

    @Option(
        names = {"-o", "--output"},
        paramLabel = "FORMAT",
        defaultValue = "table",
        description = "table, json or yaml (default: ${DEFAULT-VALUE})")
    Output output;

    Preview(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      ObjectNode body =
          Api.JSON
              .createObjectNode()
              .put("subscription", subscription)
              .put("targetVersion", version);
      if (strategy != null) {
        try {
          body.set("strategy", Api.JSON.readTree(strategy));
        } catch (JsonProcessingException e) {
          throw new CliException(
              ExitCodes.USAGE, "--strategy is not JSON: " + e.getOriginalMessage());
        }
      }
      JsonNode preview = ctx.api().post("/rollouts/preview", body);
      if (output.raw()) {
        Output.print(ctx.out(), output, preview);
      } else {
        ctx.out().print(ImpactView.render(preview));
        ctx.out().flush();
      }
      return ExitCodes.OK;
    }
  }

  /**
   * One of the rollout commands: POST /rollouts/{id}/{action}, then the rollout as it is after it.
   */
  @Command(
      mixinStandardHelpOptions = true,
      description = "Pause, resume, abort, roll back or promote a rollout.")
  static final class Action implements Callable<Integer> {
    private final CliContext ctx;
    private final String action;

    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Option(
        names = "--wave",
        paramLabel = "NAME",
        description =
            "promote: the wave to end (default: the one waiting "
                + "now, read first); a promote whose wave has ended meanwhile is refused rather than ending the next")
    String wave;

    Action(CliContext ctx, String action) {
      this.ctx = ctx;
      this.action = action;
    }

    @Override
    public Integer call() {
      String query = "";
      if ("promote".equals(action)) {
        String named = wave != null ? wave : waitingWave(ctx.api().get(Kind.rollouts.pathOf(id)));
        query = named == null ? "" : "?wave=" + URLEncoder.encode(named, StandardCharsets.UTF_8);
      }
      JsonNode rollout = ctx.api().post(Kind.rollouts.pathOf(id) + "/" + action + query, null);
      ctx.out().print(RolloutView.render(rollout));
      ctx.out().flush();
      return ExitCodes.OK;
    }
  }

  /**
   * The first wave of the rollout that has not succeeded (what a promote ends), or null when none
   * is left.
   */
  static String waitingWave(JsonNode rollout) {
    for (JsonNode w : rollout.path("waves")) {
      if (!"Succeeded".equals(w.path("state").asText())) {
        return w.path("name").asText();
      }
    }
    return null;
  }

  /**
   * Starts a rolled-back, failed or aborted rollout again (same target, same strategy): by rollout
   * id, or by subscription name (its newest rollout).
   */
  @Command(
      name = "retry",
      mixinStandardHelpOptions = true,
      description = {
        "Start a RolledBack, Failed or Aborted "
            + "rollout again: same subscription, target and strategy.",
        "NAME is a rollout id or a subscription name (its "
            + "newest rollout is retried). Refused while the subscription declares another version.",
        "A target of a " + "rollout of several subscriptions retries every target, as a new group."
      })
  static final class Retry implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    Retry(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      Api api = ctx.api();
      String id = name;
      if (!name.startsWith("ro-")) {
        JsonNode newest =
            api.get(
                    "/rollouts?subscription="
                        + Api.q(ArgumentNames.name("subscription", name))
                        + "&limit=1")
                .path("items")
                .path(0);
        if (newest.isMissingNode()) {
          throw new CliException(
              ExitCodes.NOT_FOUND, "subscription " + name + " has no rollout to retry");
        }
        id = newest.path("id").asText();
      }
      JsonNode rollout = api.post(Kind.rollouts.pathOf(id) + "/retry", null);
      ctx.out()
          .println("rollout " + rollout.path("id").asText() + " started (retry of " + id + ")");
      ctx.out().print(RolloutView.render(rollout));
      ctx.out().flush();
      return ExitCodes.OK;
    }
  }
}
