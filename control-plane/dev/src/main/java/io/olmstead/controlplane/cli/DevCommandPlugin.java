package io.olmstead.controlplane.cli;

import java.util.Map;

/** Adds {@code dev} to the control plane's command line (META-INF/services names it). */
public final class DevCommandPlugin implements CommandPlugin {
  @Override
  public Object command(Map<String, String> env) {
    return new DevCommand(env);
  }
}
