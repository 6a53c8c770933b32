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
 * {@code login --url URL (--token-stdin | --token TOKEN)}: checks the token with {@code GET /whoami}, then saves URL
 * and token in the config file (0600). Prints who the token is, never the token.
 */
@Command(name = "login", description = "Check and save the control plane's URL and an API token.")
final class LoginCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Option(names = "--url", required = true, paramLabel = "URL", description = "e.g. https://olmstead.example.com")
  String url;

  @ArgGroup(exclusive = true, multiplicity = "1")
  TokenSource token;

  static final class TokenSource {
    @Option(names = "--token-stdin", description = "read the token from standard input (keeps it out of ps)")
    boolean stdin;

    @Option(names = "--token", paramLabel = "TOKEN", description = "the token (visible in ps and shell history)")
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
      throw new CliException(ExitCodes.USAGE, "the token is empty: pass it on standard input with --token-stdin");
    }
    JsonNode whoami = new Api(new CliConfig(uri, secret), Api.timeoutFrom(ctx.env())).get("/whoami");
    CliConfig.save(ctx.configFile(), uri, secret);
    String teams = whoami.path("teams").isArray() && whoami.path("teams").size() > 0
        ? " for teams " + String.join(",", Api.JSON.convertValue(whoami.path("teams"), String[].class)) : "";
    ctx.out().println("Logged in to " + uri + " as " + whoami.path("name").asText("?") + " ("
        + whoami.path("role").asText("?") + teams + "); saved in " + ctx.configFile());
    return ExitCodes.OK;
  }

  private String readToken() {
    try {
      String line = new BufferedReader(new InputStreamReader(ctx.in(), StandardCharsets.UTF_8)).readLine();
      return line == null ? "" : line.strip();
    } catch (IOException e) {
      throw new CliException(ExitCodes.USAGE, "cannot read the token from standard input: " + e.getMessage());
    }
  }
}
