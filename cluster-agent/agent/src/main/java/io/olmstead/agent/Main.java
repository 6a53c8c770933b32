package io.olmstead.agent;

import io.olmstead.agent.hollow.HollowCommand;
import io.olmstead.agent.pool.PoolCommand;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The agent's command line; the commands that run the agent are added by the agent runtime. */
@Command(
    name = "olmstead-agent",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Olmstead cluster agent: runs the OLM reconciliation core in a guest cluster.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {HollowCommand.class, RunCommand.class, PoolCommand.class})
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    // the platform's default charset (what these writers always used), named
    Charset console = Charset.defaultCharset();
    System.exit(
        run(
            args,
            new PrintWriter(System.out, true, console),
            new PrintWriter(System.err, true, console)));
  }

  /** Runs one command and returns its exit code: 0 ok, 1 runtime failure, 2 usage error. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return new CommandLine(new Main())
        .setOut(out)
        .setErr(err)
        .setExecutionExceptionHandler(
            (e, cli, parsed) -> {
              cli.getErr()
                  .println(
                      "olmstead-agent: "
                          + (e.getMessage() == null
                              ? e.getClass().getSimpleName()
                              : e.getMessage()));
              return 1;
            })
        .execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
  }

  /** Reports the version packaged in the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Main.class.getPackage().getImplementationVersion();
      return new String[] {"olmstead-agent " + (version == null ? "dev" : version)};
    }
  }
}
