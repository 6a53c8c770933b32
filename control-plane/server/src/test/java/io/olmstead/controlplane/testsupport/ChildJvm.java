package io.olmstead.controlplane.testsupport;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that starts another JVM from a test (a control plane, a dev-mode jar): this JVM's
 * {@code java} with the compiler and collector flags the build gives test JVMs ({@code
 * olmstead.test.jvm} in the root pom), so a child started by a test costs the CPU its parent does;
 * under a benchmark, which runs with the JVM's defaults, the child gets the defaults too.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** {@code java}, the inherited flags, then {@code heap} as {@code -Xmx}. */
  public static List<String> command(String heap) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (flag.startsWith("-XX:TieredStopAtLevel=") || flag.equals("-XX:+UseSerialGC")) {
        command.add(flag);
      }
    }
    command.add("-Xmx" + heap);
    return command;
  }
}
