package io.olmstead.controlplane;

import io.olmstead.controlplane.cli.CommandPlugin;
import io.olmstead.controlplane.cli.MigrateCommand;
import io.olmstead.controlplane.cli.ServeCommand;
import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.db.StartupException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The control plane's command line: {@code serve} and {@code migrate}, plus the commands of the
 * modules on the class path ({@code dev} in {@code olmstead-dev.jar}, {@link CommandPlugin}).
 */
@Command(
    name = "olmstead-control-plane",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description =
        "Olmstead: a hosted control plane that runs Kubernetes operators across a fleet of clusters.",
    synopsisSubcommandLabel = "COMMAND")
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.setProperty(
        "vertx.logger-delegate-factory-class-name",
        "io.vertx.core.logging.SLF4JLogDelegateFactory");
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    System.exit(run(args, System.getenv(), out, err));
  }

  /** Runs one command and returns its exit code: 0 ok, 1 runtime failure, 2 usage error. */
  public static int run(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new Main());
    for (CommandPlugin plugin : ServiceLoader.load(CommandPlugin.class)) {
      cli.addSubcommand(plugin.command(env));
    }
    cli.addSubcommand(new ServeCommand(env))
        .addSubcommand(new MigrateCommand(env))
        .setOut(out)
        .setErr(err)
        .setParameterExceptionHandler(Main::usageError)
        .setExecutionExceptionHandler(
            (e, commandLine, parseResult) -> {
              commandLine.getErr().println("olmstead: " + oneLine(e));
              return 1;
            });
    return cli.execute(args);
  }

  /**
   * A bad command line: the problem, then the usage of the command it concerns, on stderr; exit
   * code 2.
   */
  static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cli = e.getCommandLine();
    cli.getErr().println("olmstead: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, cli.getErr());
    cli.usage(cli.getErr());
    return CommandLine.ExitCode.USAGE;
  }

  /**
   * Known failures are already one line for the user; anything else is named without a stack trace.
   */
  static String oneLine(Exception e) {
    if (e instanceof ConfigException || e instanceof StartupException) {
      return e.getMessage();
    }
    return "unexpected error: "
        + e.getClass().getSimpleName()
        + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "a command is required (" + String.join(", ", spec.subcommands().keySet()) + ")");
  }

  /** Reports the version packaged in the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Main.class.getPackage().getImplementationVersion();
      return new String[] {"olmstead-control-plane " + (version == null ? "dev" : version)};
    }
  }
}
