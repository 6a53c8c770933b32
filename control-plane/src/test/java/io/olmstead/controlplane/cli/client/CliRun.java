package io.olmstead.controlplane.cli.client;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** Runs the client in-process with a given environment and standard input; what it printed and its exit code. */
record CliRun(int code, String out, String err) {
  static CliRun run(Map<String, String> env, String stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = OlmsteadCli.run(args, new CliContext(env, new ByteArrayInputStream(stdin.getBytes(
        StandardCharsets.UTF_8)), new PrintWriter(out, true), new PrintWriter(err, true), Duration.ofMillis(200)));
    return new CliRun(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
  }
}
