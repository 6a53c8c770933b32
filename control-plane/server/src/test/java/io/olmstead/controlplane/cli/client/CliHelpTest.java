package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command and subcommand answers {@code --help} (and {@code -h}) with its usage on stdout and
 * exit 0.
 */
class CliHelpTest {
  private static final Map<String, String> NO_LOGIN = Map.of("XDG_CONFIG_HOME", "/nonexistent");

  private static List<List<String>> tree() {
    CliContext ctx =
        new CliContext(
            NO_LOGIN,
            System.in,
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()),
            Duration.ofMillis(10));
    List<List<String>> paths = new ArrayList<>();
    walk(OlmsteadCli.commandLine(ctx), new ArrayList<>(), paths);
    return paths;
  }

  private static void walk(CommandLine command, List<String> path, List<List<String>> paths) {
    paths.add(List.copyOf(path));
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              // aliases are the same command: walk each command once, by its own name
              if (name.equals(sub.getCommandName())) {
                List<String> next = new ArrayList<>(path);
                next.add(name);
                walk(sub, next, paths);
              }
            });
  }

  @Test
  void theTreeHoldsEveryCommand() {
    assertThat(tree())
        .contains(
            List.of("get"),
            List.of("describe"),
            List.of("delete"),
            List.of("apply"),
            List.of("login"),
            List.of("approve"),
            List.of("upgrade-readiness"),
            List.of("completion"),
            List.of("config", "use-context"),
            List.of("config", "get-contexts"),
            List.of("rollout", "status"),
            List.of("rollout", "preview"),
            List.of("rollout", "rollback"));
  }

  @Test
  void everyCommandAnswersHelpWithItsUsageAndExitZero() {
    List<List<String>> paths = tree();
    assertThat(paths).hasSizeGreaterThan(15);
    for (List<String> path : paths) {
      for (String flag : List.of("--help", "-h")) {
        List<String> args = new ArrayList<>(path);
        args.add(flag);
        CliRun run = CliRun.run(NO_LOGIN, "", args.toArray(String[]::new));
        String name = String.join(" ", path);
        assertThat(run.code()).as(name + " " + flag + "\n" + run).isZero();
        assertThat(run.out())
            .as(name + " " + flag)
            .startsWith("Usage: olmstead" + (path.isEmpty() ? "" : " " + name));
        assertThat(run.err()).as(name + " " + flag).isEmpty();
      }
      List<String> version = new ArrayList<>(path);
      version.add("--version");
      CliRun run = CliRun.run(NO_LOGIN, "", version.toArray(String[]::new));
      if (!path.equals(List.of("upgrade-readiness"))) {
        // upgrade-readiness --version takes the OpenShift minor
        assertThat(run.out()).as(path + " --version\n" + run).startsWith("olmstead ");
      }
    }
  }

  @Test
  void theUsageErrorPointsAtAHelpThatWorks() {
    CliRun run = CliRun.run(NO_LOGIN, "", "get");
    assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).contains("Run 'olmstead get --help' for usage.");
    assertThat(CliRun.run(NO_LOGIN, "", "get", "--help").code()).isZero();
  }

  @Test
  void completionPrintsABashScriptThatKnowsTheCommands() {
    CliRun bash = CliRun.ok(CliRun.run(NO_LOGIN, "", "completion", "bash"));
    assertThat(bash.out())
        .contains("complete -F", "use-context", "get-contexts", "rollout", "--watch");
    assertThat(CliRun.run(NO_LOGIN, "", "completion", "fish").code()).isEqualTo(ExitCodes.USAGE);
  }
}
