package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code control-plane/bin/olmstead} as users run it: it finds the packaged jar in ../server/target
 * and starts the client.
 */
class OlmsteadScriptIT {
  private static final Path SCRIPT = Path.of("..", "bin", "olmstead");

  record Result(int code, String out, String err) {}

  private static Result run(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(new java.util.ArrayList<>(List.of("sh", SCRIPT.toString())));
    builder.command().addAll(List.of(args));
    builder.environment().remove("OLMSTEAD_JAR");
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("bin/olmstead ended within 60 s").isTrue();
    return new Result(
        process.exitValue(),
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  @Test
  void theScriptFindsTheBuiltJarAndPrintsTheClientsHelp() throws Exception {
    assertThat(SCRIPT.toFile().canExecute()).as("bin/olmstead is executable").isTrue();
    Result help = run(Map.of(), "--help");
    assertThat(help.code()).as(help.err()).isZero();
    assertThat(help.out())
        .startsWith("Usage: olmstead")
        .contains(
            "login",
            "get",
            "describe",
            "apply",
            "rollout",
            "approve",
            "upgrade-readiness",
            "Exit codes:");
  }

  @Test
  void withoutAJarOrWithNoLoginTheScriptSaysWhatToDoOnOneLine() throws Exception {
    Result missing =
        run(Map.of("OLMSTEAD_JAR", "/nonexistent/olmstead-control-plane.jar"), "--help");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err().lines())
        .singleElement()
        .asString()
        .contains("cannot find olmstead-control-plane.jar", "OLMSTEAD_JAR");
    Result notLoggedIn =
        run(
            Map.of("XDG_CONFIG_HOME", "/nonexistent", "OLMSTEAD_URL", "", "OLMSTEAD_TOKEN", ""),
            "get",
            "clusters");
    assertThat(notLoggedIn.code()).isEqualTo(ExitCodes.AUTH);
    assertThat(notLoggedIn.err().lines())
        .singleElement()
        .asString()
        .startsWith("olmstead: not logged in")
        .contains("run olmstead login");
  }
}
