package io.olmstead.controlplane.cli.client;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code completion bash|zsh}: the shell completion script of the whole command tree (picocli's
 * AutoComplete).
 */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {
      "Print a shell completion script for bash or zsh.",
      "bash: source <(olmstead completion bash)",
      "zsh:  autoload -U +X bashcompinit && bashcompinit && source <(olmstead completion zsh)"
    })
final class CompletionCommand implements Callable<Integer> {
  /** The shells the script serves (zsh through its bash completion layer). */
  enum Shell {
    bash,
    zsh
  }

  private final CliContext ctx;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh")
  Shell shell;

  CompletionCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    ctx.out().print(AutoComplete.bash("olmstead", spec.root().commandLine()));
    ctx.out().flush();
    return ExitCodes.OK;
  }
}
