package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Stopping a control plane closes every agent connection with 1001 shutting-down (agents then
 * reconnect at once to another replica), including connections still in their handshake, before the
 * HTTP server stops; quietly.
 */
class GracefulShutdownIT {

  @Test
  void everyConnectedAgentGetsShuttingDownBeforeTheServerStops() throws Exception {
    TestControlPlane cp =
        TestControlPlane.start(TestDatabase.create(GracefulShutdownIT.class), java.util.Map.of());
    Vertx vertx = Vertx.vertx();
    List<RawAgent> agents = new ArrayList<>();
    Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    try {
      ChannelFixtures fixtures = new ChannelFixtures(cp.database());
      String token = fixtures.enrollmentToken(40, 600, "{}", null);
      for (int i = 0; i < 40; i++) {
        RawAgent agent =
            RawAgent.connect(vertx, cp.port(), Enroll.credential(cp.baseUrl(), token, "stop-" + i));
        agents.add(agent);
        if (i % 4 != 0) {
          agent.handshake(); // the rest stay upgraded without hello, as agents caught mid-handshake
        }
      }
      logged.start();
      root.addAppender(logged);
      cp.close();
      for (RawAgent agent : agents) {
        assertThat(agent.awaitClose()).as("close code").isEqualTo(1001);
        assertThat(agent.closeReason).startsWith("shutting-down");
      }
      assertThat(logged.list)
          .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
          .allSatisfy(e -> assertThat(e.getThrowableProxy()).as(e.getFormattedMessage()).isNull());
    } finally {
      root.detachAppender(logged);
      agents.forEach(RawAgent::close);
      vertx.close();
    }
  }
}
