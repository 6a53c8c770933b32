package io.olmstead.controlplane.cli.client;

import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code olmstead} client: talks to a control plane's REST API (docs/cli.md). Launched by
 * {@code control-plane/bin/olmstead}; every failure is one line on stderr and a documented exit code.
 */
@Command(name = "olmstead", mixinStandardHelpOptions = true, versionProvider = OlmsteadCli.Version.class,
    description = "Drive an Olmstead control plane: clusters, subscriptions, rollouts and catalogs.",
    synopsisSubcommandLabel = "COMMAND",
    footer = {"", "Environment: OLMSTEAD_URL and OLMSTEAD_TOKEN override the saved login.",
        "Exit codes: 0 ok, 1 error, 2 usage or input file, 3 not found, 4 conflict or failed rollout, "
            + "5 not logged in or refused."})
public final class OlmsteadCli implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    System.exit(run(args, new CliContext(System.getenv(), System.in, out, err, Duration.ofSeconds(2))));
  }

  /** Runs one command and returns its exit code ({@link ExitCodes}). */
  public static int run(String[] args, CliContext ctx) {
    CommandLine cli = new CommandLine(new OlmsteadCli())
        .addSubcommand(new LoginCommand(ctx))
        .addSubcommand(new GetCommand(ctx))
        .addSubcommand(new DescribeCommand(ctx))
        .addSubcommand(new ApplyCommand(ctx))
        .addSubcommand(RolloutCommands.command(ctx))
        .addSubcommand(new ApproveCommand(ctx))
        .addSubcommand(new ReadinessCommand(ctx))
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setOut(ctx.out())
        .setErr(ctx.err())
        .setParameterExceptionHandler((e, a) -> {
          e.getCommandLine().getErr().println("olmstead: " + e.getMessage());
          CommandLine.UnmatchedArgumentException.printSuggestions(e, e.getCommandLine().getErr());
          e.getCommandLine().getErr().println("Run '" + e.getCommandLine().getCommandSpec().qualifiedName()
              + " --help' for usage.");
          return ExitCodes.USAGE;
        })
        .setExecutionExceptionHandler((e, commandLine, parseResult) -> {
          if (e instanceof CliException known) {
            commandLine.getErr().println("olmstead: " + known.getMessage());
            return known.exitCode();
          }
          commandLine.getErr().println("olmstead: unexpected error: " + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("")));
          return ExitCodes.ERROR;
        });
    int code = cli.execute(args);
    ctx.out().flush();
    ctx.err().flush();
    return code;
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
