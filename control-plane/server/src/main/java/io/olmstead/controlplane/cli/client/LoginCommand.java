package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code login --url URL (--token-stdin | --token TOKEN) [--context NAME]}: checks the token with
 * {@code GET /whoami}, then saves the token in its own file (0600) and the URL as a context of the
 * config file, made current. Prints who the token is, never the token.
 */
@Command(
    name = "login",
    mixinStandardHelpOptions = true,
    description = "Check and save the control plane's URL and an API token.")
final class LoginCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Option(
      names = "--url",
      required = true,
      paramLabel = "URL",
      description = "e.g. https://olmstead.example.com")
  String url;

  @ArgGroup(exclusive = true, multiplicity = "1")
  TokenSource token;

  static final class TokenSource {
    @Option(
        names = "--token-stdin",
        description = "read the token from standard input (keeps it out of ps)")
    boolean stdin;

    @Option(
        names = "--token",
        paramLabel = "TOKEN",
        description = "the token (visible in ps and shell history)")
    String value;
  }

  LoginCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    URI uri = CliConfig.parseUrl(url.strip());
    String secret = token.stdin ? readToken() : token.value.strip();
    if (secret.isEmpty()) {
      throw new CliException(
          ExitCodes.USAGE, "the token is empty: pass it on standard input with --token-stdin");
    }
    String context =
        ctx.contextName() != null ? ContextsFile.checkName(ctx.contextName()) : contextName(uri);
    JsonNode whoami =
        new Api(new CliConfig(uri, secret), Api.timeoutFrom(ctx.env())).get("/whoami");
    CliConfig.save(ctx, context, uri, secret);
    String teams =
        whoami.path("teams").isArray() && whoami.path("teams").size() > 0
            ? " for teams "
                + String.join(",", Api.JSON.convertValue(whoami.path("teams"), String[].class))
            : "";
    ctx.out()
        .println(
            "Logged in to "
                + uri
                + " as "
                + whoami.path("name").asText("?")
                + " ("
                + whoami.path("role").asText("?")
                + teams
                + "); saved as context "
                + context
                + " in "
                + ctx.configFile()
                + " (now the current context)");
    return ExitCodes.OK;
  }

  /**
   * A context's default name: the URL's host, and its port when it has one ({@code
   * 127.0.0.1-8080}).
   */
  static String contextName(URI url) {
    String name =
        (url.getHost() + (url.getPort() > 0 ? "-" + url.getPort() : ""))
            .replaceAll("[^A-Za-z0-9._-]", "-")
            .replaceAll("^[^A-Za-z0-9]+", "");
    return name.isEmpty() ? "default" : name.length() > 63 ? name.substring(0, 63) : name;
  }

  private String readToken() {
    try {
      String line =
          new BufferedReader(new InputStreamReader(ctx.in(), StandardCharsets.UTF_8)).readLine();
      return line == null ? "" : line.strip();
    } catch (IOException e) {
      throw new CliException(
          ExitCodes.USAGE, "cannot read the token from standard input: " + e.getMessage());
    }
  }
}
