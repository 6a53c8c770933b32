package io.olmstead.agent.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ChannelOptionsTest {
  @Test
  void httpBecomesWsAndHttpsBecomesWssKeepingABasePath() {
    assertThat(ChannelOptions.of(URI.create("http://cp:8080"), "c", null).connectUri())
        .hasToString("ws://cp:8080/api/v1/agent/connect");
    assertThat(
            ChannelOptions.of(URI.create("https://cp.example.com/olmstead/"), "c", null)
                .connectUri())
        .hasToString("wss://cp.example.com/olmstead/api/v1/agent/connect");
    assertThat(ChannelOptions.of(URI.create("https://cp.example.com"), "c", null).enrollUri())
        .hasToString("https://cp.example.com/api/v1/agent/enroll");
  }
}
