package io.olmstead.controlplane.cli.client;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * What a client command runs with: the environment (for {@code OLMSTEAD_*}, {@code XDG_CONFIG_HOME}, {@code HOME}),
 * standard streams, and how often {@code --watch} polls (tests shorten it). Passed in so tests run commands in-process.
 */
public record CliContext(Map<String, String> env, InputStream in, PrintWriter out, PrintWriter err,
    Duration pollInterval) {

  /** {@code ${XDG_CONFIG_HOME:-$HOME/.config}/olmstead/config.yaml}. */
  public Path configFile() {
    String xdg = env.get("XDG_CONFIG_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
        : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".config");
    return base.resolve("olmstead").resolve("config.yaml");
  }

  /**
   * The control plane's client, from the saved login overridden by {@code OLMSTEAD_URL} / {@code OLMSTEAD_TOKEN}, waiting
   * as long as {@code OLMSTEAD_REQUEST_TIMEOUT} says.
   */
  public Api api() {
    return new Api(CliConfig.load(this), Api.timeoutFrom(env));
  }
}
