package io.olmstead.controlplane.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The installed kubectl, for tests that drive it (they skip, saying so, when it is absent). */
public final class Kubectl {
  private Kubectl() {}

  /** The kubectl executable on PATH, or null. */
  public static String path() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "kubectl");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }

  /**
   * Runs kubectl with {@code args} against {@code kubeconfig} (its discovery cache next to the
   * kubeconfig, not in the user's home) and checks that it exits 0 within 60 s; returns what it
   * printed (stdout and stderr), trimmed.
   */
  public static String run(Path kubeconfig, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                path(),
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                kubeconfig.toAbsolutePath().getParent().resolve("kube-cache").toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("kubectl %s: %s", String.join(" ", args), out).isZero();
    return out;
  }
}
