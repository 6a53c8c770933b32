package io.olmstead.controlplane.cli.client;

import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code olmstead} client: talks to a control plane's REST API (docs/cli.md). Launched by
 * {@code control-plane/bin/olmstead}; every failure is one line on stderr and a documented exit
 * code.
 */
@Command(
    name = "olmstead",
    mixinStandardHelpOptions = true,
    versionProvider = OlmsteadCli.Version.class,
    description =
        "Drive an Olmstead control plane: clusters, subscriptions, rollouts and catalogs.",
    synopsisSubcommandLabel = "COMMAND",
    footer = {
      "",
      "Config: $OLMSTEAD_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/olmstead/config (contexts: see "
          + "olmstead config --help).",
      "Environment: OLMSTEAD_CONTEXT picks a context; OLMSTEAD_URL and OLMSTEAD_TOKEN "
          + "override its URL and token.",
      "Exit codes: 0 ok, 1 error, 2 usage or input file, 3 not found, 4 conflict or rollout ended badly, "
          + "5 not logged in or refused, 6 rollout paused, 7 watch timed out."
    })
public final class OlmsteadCli implements Runnable {
  private final CliContext ctx;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  OlmsteadCli(CliContext ctx) {
    this.ctx = ctx;
  }

  /**
   * {@code --context NAME}, accepted before or after any command: that context instead of the
   * current one.
   */
  @Option(
      names = "--context",
      paramLabel = "NAME",
      scope = CommandLine.ScopeType.INHERIT,
      description = "use this context of the config file instead of the current one")
  void context(String name) {
    ctx.contextFlag().set(name);
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    System.exit(
        run(args, new CliContext(System.getenv(), System.in, out, err, Duration.ofSeconds(2))));
  }

  /** Runs one command and returns its exit code ({@link ExitCodes}). */
  public static int run(String[] args, CliContext ctx) {
    CommandLine cli = commandLine(ctx);
    int code = cli.execute(args);
    ctx.out().flush();
    ctx.err().flush();
    return code;
  }

  /**
   * The whole command tree, its streams and error handlers set; {@code -V} on any command prints
   * the version.
   */
  static CommandLine commandLine(CliContext ctx) {
    CommandLine cli =
        new CommandLine(new OlmsteadCli(ctx))
            .addSubcommand(new LoginCommand(ctx))
            .addSubcommand(ConfigCommands.command(ctx))
            .addSubcommand(new GetCommand(ctx))
            .addSubcommand(new DescribeCommand(ctx))
            .addSubcommand(new ApplyCommand(ctx))
            .addSubcommand(new DeleteCommand(ctx))
            .addSubcommand(RolloutCommands.command(ctx))
            .addSubcommand(new ApproveCommand(ctx))
            .addSubcommand(new ReadinessCommand(ctx))
            .addSubcommand(new CompletionCommand(ctx))
            .setCaseInsensitiveEnumValuesAllowed(true)
            .setOut(ctx.out())
            .setErr(ctx.err())
            .setParameterExceptionHandler(
                (e, a) -> {
                  e.getCommandLine().getErr().println("olmstead: " + e.getMessage());
                  CommandLine.UnmatchedArgumentException.printSuggestions(
                      e, e.getCommandLine().getErr());
                  e.getCommandLine()
                      .getErr()
                      .println(
                          "Run '"
                              + e.getCommandLine().getCommandSpec().qualifiedName()
                              + " --help' for usage.");
                  return ExitCodes.USAGE;
                })
            .setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> {
                  if (e instanceof CliException known) {
                    commandLine.getErr().println("olmstead: " + known.getMessage());
                    return known.exitCode();
                  }
                  commandLine
                      .getErr()
                      .println(
                          "olmstead: unexpected error: "
                              + e.getClass().getSimpleName()
                              + (e.getMessage() == null
                                  ? ""
                                  : ": " + e.getMessage().lines().findFirst().orElse("")));
                  return ExitCodes.ERROR;
                });
    withVersion(cli);
    return cli;
  }

  private static void withVersion(CommandLine command) {
    command.getCommandSpec().versionProvider(new Version());
    command.getSubcommands().values().forEach(OlmsteadCli::withVersion);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
  }

  /** The version packaged in the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = OlmsteadCli.class.getPackage().getImplementationVersion();
      return new String[] {"olmstead " + (version == null ? "dev" : version)};
    }
  }
}
