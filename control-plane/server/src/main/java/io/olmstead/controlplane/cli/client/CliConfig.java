package io.olmstead.controlplane.cli.client;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * The URL and token a command uses: those of the context ({@code --context}, {@code
 * OLMSTEAD_CONTEXT}, else the config file's current one; {@link ContextsFile}), each overridden by
 * {@code OLMSTEAD_URL} / {@code OLMSTEAD_TOKEN}. The token is never printed.
 */
public record CliConfig(URI url, String token) {

  @Override
  public String toString() {
    return "CliConfig[url=" + url + ", token=***]";
  }

  /**
   * The URL and token to use; a {@link CliException} naming the missing setting, the unknown
   * context or unsafe file.
   */
  public static CliConfig load(CliContext ctx) {
    Path file = ctx.configFile();
    String url = ctx.env().get("OLMSTEAD_URL");
    String token = ctx.env().get("OLMSTEAD_TOKEN");
    String wanted = ctx.contextName();
    if (blank(url) || blank(token) || wanted != null) {
      ContextsFile contexts = ContextsFile.read(ctx);
      String name = wanted != null ? wanted : contexts.current();
      if (name != null) {
        ContextsFile.Context context =
            contexts
                .find(name)
                .orElseThrow(
                    () ->
                        new CliException(
                            ExitCodes.USAGE,
                            "no context '"
                                + name
                                + "' in "
                                + file
                                + ": olmstead config get-contexts lists them"));
        url = blank(url) ? context.url().toString() : url;
        token = blank(token) ? context.token(file) : token;
      }
    }
    if (blank(url) || blank(token)) {
      throw new CliException(
          ExitCodes.AUTH,
          "not logged in (no "
              + (blank(url) ? "URL" : "token")
              + " in "
              + file
              + " nor OLMSTEAD_"
              + (blank(url) ? "URL" : "TOKEN")
              + "): run olmstead login --url URL --token-stdin");
    }
    return new CliConfig(parseUrl(url.strip()), token.strip());
  }

  /** An http(s) URL without a query; its path (if any) is where {@code /api/v1} lives. */
  public static URI parseUrl(String url) {
    try {
      URI uri = new URI(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null
          || uri.getQuery() != null) {
        throw new URISyntaxException(url, "not an http(s) URL with a host");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new CliException(
          ExitCodes.USAGE,
          "the URL '"
              + url
              + "' is not an http(s) URL such as "
              + "https://olmstead.example.com: pass a valid --url (or OLMSTEAD_URL)");
    }
  }

  /**
   * Saves a login as context {@code name}: the token in {@code tokens/NAME} beside the config file
   * (0600), the context added or replaced and made current. Returns the token file.
   */
  public static Path save(CliContext ctx, String name, URI url, String token) {
    ContextsFile.checkName(name);
    Path file = ctx.configFile();
    Path tokenFile = file.toAbsolutePath().getParent().resolve("tokens").resolve(name);
    try {
      ContextsFile.writeOwnerOnly(tokenFile, token + "\n");
    } catch (IOException e) {
      throw new CliException(ExitCodes.ERROR, "cannot write " + tokenFile + ": " + e.getMessage());
    }
    ContextsFile.read(ctx)
        .with(new ContextsFile.Context(name, url, tokenFile, null))
        .use(name)
        .write(file);
    return tokenFile;
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
