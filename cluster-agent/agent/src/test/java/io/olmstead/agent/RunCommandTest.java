package io.olmstead.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.agent.config.AgentConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class RunCommandTest {
  @Test
  void runIsRegisteredAndFailsClearlyWithoutConfiguration() {
    assumeTrue(
        System.getenv("OLMSTEAD_CLUSTER_NAME") == null, "the environment configures a real agent");
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {"run"}, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("OLMSTEAD_CLUSTER_NAME is required");
  }

  @Test
  void runHasHelp() {
    StringWriter out = new StringWriter();
    int code =
        Main.run(
            new String[] {"run", "--help"},
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter()));
    assertThat(code).isZero();
    assertThat(out.toString()).contains("OLMSTEAD_*");
    // every variable the agent reads is listed, so `run --help` is enough to configure it
    assertThat(AgentConfig.ENVIRONMENT)
        .allSatisfy(name -> assertThat(out.toString()).contains(name));
  }
}
