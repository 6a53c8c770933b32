package io.olmstead.controlplane.cli.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code config get-contexts | current-context | use-context NAME | set-context NAME |
 * delete-context NAME}: the contexts of the config file ({@link ContextsFile}), as kubectl's {@code
 * config} does. Tokens are never printed.
 */
final class ConfigCommands {
  private ConfigCommands() {}

  static CommandLine command(CliContext ctx) {
    return new CommandLine(new Group())
        .addSubcommand(new GetContexts(ctx))
        .addSubcommand(new CurrentContext(ctx))
        .addSubcommand(new UseContext(ctx))
        .addSubcommand(new SetContext(ctx))
        .addSubcommand(new DeleteContext(ctx));
  }

  @Command(
      name = "config",
      mixinStandardHelpOptions = true,
      synopsisSubcommandLabel = "COMMAND",
      description = {
        "Show and switch contexts: named control planes, each a URL and a token file.",
        "The file: $OLMSTEAD_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/olmstead/config."
      })
  static final class Group implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "a config command is required (get-contexts, "
              + "current-context, use-context, set-context or delete-context)");
    }
  }

  @Command(
      name = "get-contexts",
      mixinStandardHelpOptions = true,
      description =
          "List the contexts: the current one marked *, each with its URL and token file (never the token).")
  static final class GetContexts implements Callable<Integer> {
    private final CliContext ctx;

    @Option(
        names = {"-o", "--output"},
        paramLabel = "FORMAT",
        defaultValue = "table",
        description = Output.HELP)
    Output output;

    GetContexts(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      ContextsFile file = ContextsFile.read(ctx);
      if (output == Output.name) {
        file.contexts().forEach(c -> ctx.out().println(c.name()));
      } else if (output.raw()) {
        var items = Api.JSON.createArrayNode();
        file.contexts()
            .forEach(
                c ->
                    items
                        .addObject()
                        .put("name", c.name())
                        .put("url", c.url().toString())
                        .put(
                            "tokenFile",
                            c.tokenFile() == null
                                ? ctx.configFile().toString()
                                : c.tokenFile().toString())
                        .put("current", c.name().equals(file.current())));
        Output.print(ctx.out(), output, Api.JSON.createObjectNode().set("items", items));
      } else if (file.contexts().isEmpty()) {
        ctx.err()
            .println(
                "No contexts in "
                    + ctx.configFile()
                    + ": run olmstead login --url URL --token-stdin");
      } else {
        Table table = new Table(List.of("current", "name", "url", "token-file"));
        file.contexts()
            .forEach(
                c ->
                    table.row(
                        List.of(
                            c.name().equals(file.current()) ? "*" : " ",
                            c.name(),
                            c.url().toString(),
                            c.tokenFile() == null
                                ? "(in " + ctx.configFile() + ")"
                                : c.tokenFile().toString())));
        ctx.out().print(table.render());
      }
      ctx.out().flush();
      ctx.err().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "current-context",
      mixinStandardHelpOptions = true,
      description = "Print the current context's name.")
  static final class CurrentContext implements Callable<Integer> {
    private final CliContext ctx;

    CurrentContext(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      String current = ContextsFile.read(ctx).current();
      if (current == null) {
        throw new CliException(
            ExitCodes.NOT_FOUND,
            "no current context in "
                + ctx.configFile()
                + ": run olmstead "
                + "config use-context NAME");
      }
      ctx.out().println(current);
      ctx.out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "use-context",
      mixinStandardHelpOptions = true,
      description = "Make NAME the current context: later commands talk to its control plane.")
  static final class UseContext implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    UseContext(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      ContextsFile file = ContextsFile.read(ctx);
      if (file.find(name).isEmpty()) {
        throw new CliException(
            ExitCodes.NOT_FOUND,
            "no context '"
                + name
                + "' in "
                + ctx.configFile()
                + ": olmstead config get-contexts lists them");
      }
      file.use(name).write(ctx.configFile());
      ctx.out().println("Switched to context \"" + name + "\".");
      ctx.out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "set-context",
      mixinStandardHelpOptions = true,
      description =
          "Add or change a context: its URL and the file holding its token (owner-only, mode 0600).")
  static final class SetContext implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Option(names = "--url", required = true, paramLabel = "URL")
    String url;

    @Option(
        names = "--token-file",
        required = true,
        paramLabel = "FILE",
        description = "a file holding the token (e.g. a mounted Secret in CI)")
    Path tokenFile;

    SetContext(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      ContextsFile.checkName(name);
      if (!Files.isRegularFile(tokenFile)) {
        throw new CliException(ExitCodes.USAGE, "--token-file " + tokenFile + " is not a file");
      }
      ContextsFile.read(ctx)
          .with(
              new ContextsFile.Context(
                  name, CliConfig.parseUrl(url.strip()), tokenFile.toAbsolutePath(), null))
          .write(ctx.configFile());
      ctx.out().println("Context \"" + name + "\" set.");
      ctx.out().flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "delete-context",
      mixinStandardHelpOptions = true,
      description = "Remove a context (and the token file login wrote for it).")
  static final class DeleteContext implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    DeleteContext(CliContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
      ContextsFile file = ContextsFile.read(ctx);
      ContextsFile.Context context =
          file.find(name)
              .orElseThrow(
                  () ->
                      new CliException(
                          ExitCodes.NOT_FOUND, "no context '" + name + "' in " + ctx.configFile()));
      file.without(name).write(ctx.configFile());
      Path tokens = ctx.configFile().toAbsolutePath().getParent().resolve("tokens");
      if (context.tokenFile() != null && context.tokenFile().getParent().equals(tokens)) {
        Files.deleteIfExists(context.tokenFile());
      }
      ctx.out().println("Deleted context " + name + " from " + ctx.configFile());
      ctx.out().flush();
      return ExitCodes.OK;
    }
  }
}
