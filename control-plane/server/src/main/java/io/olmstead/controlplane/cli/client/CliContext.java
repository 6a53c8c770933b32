package io.olmstead.controlplane.cli.client;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a client command runs with: the environment (for {@code OLMSTEAD_*}, {@code
 * XDG_CONFIG_HOME}, {@code HOME}), standard streams, how often {@code --watch} polls (tests shorten
 * it), and the {@code --context} given on the command line (set while parsing). Passed in so tests
 * run commands in-process.
 */
public record CliContext(
    Map<String, String> env,
    InputStream in,
    PrintWriter out,
    PrintWriter err,
    Duration pollInterval,
    AtomicReference<String> contextFlag) {

  public CliContext(
      Map<String, String> env,
      InputStream in,
      PrintWriter out,
      PrintWriter err,
      Duration pollInterval) {
    this(env, in, out, err, pollInterval, new AtomicReference<>());
  }

  /** {@code $OLMSTEAD_CONFIG}, else {@code ${XDG_CONFIG_HOME:-$HOME/.config}/olmstead/config}. */
  public Path configFile() {
    String explicit = env.get("OLMSTEAD_CONFIG");
    if (explicit != null && !explicit.isBlank()) {
      return Path.of(explicit);
    }
    return configDir().resolve("config");
  }

  /**
   * The login file of earlier versions (one URL and token), read when {@link #configFile()} does
   * not exist.
   */
  public Path legacyConfigFile() {
    return configDir().resolve("config.yaml");
  }

  private Path configDir() {
    String xdg = env.get("XDG_CONFIG_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".config");
    return base.resolve("olmstead");
  }

  /**
   * The context to use instead of the file's current one: {@code --context}, else {@code
   * OLMSTEAD_CONTEXT}.
   */
  public String contextName() {
    String flag = contextFlag.get();
    if (flag != null && !flag.isBlank()) {
      return flag;
    }
    String fromEnv = env.get("OLMSTEAD_CONTEXT");
    return fromEnv == null || fromEnv.isBlank() ? null : fromEnv;
  }

  /**
   * The control plane's client: the context's URL and token, each overridden by {@code
   * OLMSTEAD_URL} / {@code OLMSTEAD_TOKEN}, waiting as long as {@code OLMSTEAD_REQUEST_TIMEOUT}
   * says.
   */
  public Api api() {
    return new Api(CliConfig.load(this), Api.timeoutFrom(env));
  }
}
