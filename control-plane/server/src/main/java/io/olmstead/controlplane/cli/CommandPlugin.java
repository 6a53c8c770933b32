package io.olmstead.controlplane.cli;

import java.util.Map;
import java.util.ServiceLoader;

/**
 * A command another module adds to the control plane's command line, found with {@link
 * ServiceLoader}: the dev module adds {@code dev}, so the server's jar has only {@code serve} and
 * {@code migrate}.
 */
public interface CommandPlugin {
  /**
   * The picocli command object (annotated with {@code @Command}), given the process environment.
   */
  Object command(Map<String, String> env);
}
