package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class DatabaseOutageTest {
  @Test
  void anOutageIsOneWarningWithoutStackTraceAndOneLineWhenItEnds() {
    Logger logger = (Logger) LoggerFactory.getLogger(DatabaseOutage.class);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    try {
      DatabaseOutage outage = new DatabaseOutage("agent credential lookups");
      outage.recovered();
      for (int i = 0; i < 500; i++) {
        outage.failed(new ConnectException("Connection refused: 127.0.0.1/127.0.0.1:5432"));
      }
      outage.recovered();
      outage.recovered();
      outage.failed(new ConnectException("Connection refused"));
      assertThat(logged.list)
          .extracting(ILoggingEvent::getLevel)
          .containsExactly(Level.WARN, Level.INFO, Level.WARN);
      assertThat(logged.list).allSatisfy(e -> assertThat(e.getThrowableProxy()).isNull());
      assertThat(logged.list.get(0).getFormattedMessage())
          .isEqualTo(
              "database unavailable for agent credential "
                  + "lookups: ConnectException: Connection refused: 127.0.0.1/127.0.0.1:5432 (further failures are counted "
                  + "until it answers again)");
      assertThat(logged.list.get(1).getFormattedMessage()).contains("500 calls failed");
    } finally {
      logger.detachAppender(logged);
    }
  }
}
