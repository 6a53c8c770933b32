package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Heartbeat;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.StatusAck;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway's traffic meters on {@code /metrics}: messages in and out by type, status ingestion
 * batches.
 */
class ChannelMetricsIT {
  private static final String IN = "olmstead_agent_messages_in_total";
  private static final String OUT = "olmstead_agent_messages_out_total";
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TestDatabase.create(ChannelMetricsIT.class), Map.of());
    fixtures = new ChannelFixtures(cp.database());
    fixtures.placedEverywhere("a", "b", "c");
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close();
    cp.close();
  }

  @Test
  void messagesAreCountedByTypeAndStatusBatchesBySizeAndLatency() throws Exception {
    String credential =
        Enroll.credential(cp.baseUrl(), fixtures.enrollmentToken(1, 600, "{}", null), "metered");
    Scrape before = Scrape.of(cp.baseUrl());
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      agent.next(Desired.class);
      for (int i = 0; i < 3; i++) {
        agent.sendMessage(new Heartbeat(1, null));
        agent.next(Heartbeat.class);
      }
      agent.sendMessage(
          new Status(
              1,
              null,
              "metered",
              1,
              true,
              List.of(succeeded("a"), succeeded("b"), succeeded("c"))));
      assertThat(agent.next(StatusAck.class).seq()).isEqualTo(1);
    }
    Scrape after = Scrape.of(cp.baseUrl());

    assertThat(
            after.since(
                before,
                type(IN, "hello"),
                type(IN, "heartbeat"),
                type(IN, "status"),
                type(OUT, "welcome"),
                type(OUT, "desired"),
                type(OUT, "heartbeat"),
                type(OUT, "statusAck"),
                "olmstead_agent_ingest_batch_rows_sum"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                type(IN, "hello"),
                1.0,
                type(IN, "heartbeat"),
                3.0,
                type(IN, "status"),
                1.0,
                type(OUT, "welcome"),
                1.0,
                type(OUT, "desired"),
                1.0,
                type(OUT, "heartbeat"),
                3.0,
                type(OUT, "statusAck"),
                1.0,
                "olmstead_agent_ingest_batch_rows_sum",
                3.0));
    assertThat(
            after.since(
                before,
                "olmstead_agent_ingest_batch_rows_count",
                "olmstead_agent_ingest_batch_latency_seconds_count",
                "olmstead_agent_ingest_batch_latency_seconds_sum"))
        .allSatisfy((series, growth) -> assertThat(growth).as(series).isPositive());
    assertThat(after.samples())
        .containsKeys(
            "olmstead_agent_ingest_batch_rows{quantile=\"0.99\"}",
            "olmstead_agent_ingest_batch_latency_seconds{quantile=\"0.99\"}");
  }

  private static String type(String meter, String type) {
    return meter + "{type=\"" + type + "\"}";
  }

  private static SubscriptionStatus succeeded(String name) {
    return new SubscriptionStatus(
        name, name + ".v1.0.0", "1.0.0", "1.0.0", "Succeeded", null, null, null, null);
  }
}
