package io.olmstead.agent.hollow;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.agent.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class HollowCommandTest {
  @Test
  void hollowIsACommandOfTheAgentAndRejectsBadArguments() {
    StringWriter err = new StringWriter();
    int code =
        Main.run(
            new String[] {
              "hollow", "--count", "0", "--control-plane", "http://127.0.0.1:1", "--token", "t"
            },
            new PrintWriter(new StringWriter()),
            new PrintWriter(err));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--count must be between 1 and 100000");
  }

  @Test
  void helpListsTheLoadOptions() {
    StringWriter out = new StringWriter();
    int code =
        Main.run(
            new String[] {"hollow", "--help"},
            new PrintWriter(out),
            new PrintWriter(new StringWriter()));
    assertThat(code).isZero();
    assertThat(out.toString())
        .contains("--ready-after", "--failure-rate", "--name-prefix", "--count");
  }
}
