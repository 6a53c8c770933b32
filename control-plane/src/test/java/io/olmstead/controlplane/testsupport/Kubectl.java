package io.olmstead.controlplane.testsupport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** The installed kubectl, for tests that drive it (they skip, saying so, when it is absent). */
public final class Kubectl {
  private Kubectl() {
  }

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
}
