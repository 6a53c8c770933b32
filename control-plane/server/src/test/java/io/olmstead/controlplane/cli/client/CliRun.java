package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Runs the client in-process with a given environment and standard input; what it printed and its
 * exit code.
 */
record CliRun(int code, String out, String err) {
  static CliRun run(Map<String, String> env, String stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        OlmsteadCli.run(
            args,
            new CliContext(
                env,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                Duration.ofMillis(200)));
    return new CliRun(code, out.toString(), err.toString());
  }

  static CliRun ok(CliRun run) {
    assertThat(run.code()).as(run.toString()).isZero();
    return run;
  }

  /** A one-line error: exactly one line on stderr, starting olmstead:, no stack trace. */
  static void oneLine(CliRun run, int code, String... fragments) {
    assertThat(run.code()).as(run.toString()).isEqualTo(code);
    assertThat(run.err().lines()).as(run.toString()).hasSize(1);
    assertThat(run.err()).startsWith("olmstead: ").doesNotContain("\tat ", "Exception");
    for (String fragment : fragments) {
      assertThat(run.err()).contains(fragment);
    }
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
  }
}
