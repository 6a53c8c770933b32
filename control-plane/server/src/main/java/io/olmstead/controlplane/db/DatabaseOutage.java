package io.olmstead.controlplane.db;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a database outage seen by one kind of work as one WARN line when it starts and one INFO line
 * when it ends, instead of a stack trace per failed call (thousands while a fleet reconnects during
 * the outage).
 */
public final class DatabaseOutage {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseOutage.class);

  private final String work;
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicLong failures = new AtomicLong();

  /** {@code work} names what failed in the log lines, e.g. "agent credential lookups". */
  public DatabaseOutage(String work) {
    this.work = work;
  }

  /** A call failed: the first failure of an outage is logged, the others counted. */
  public void failed(Throwable cause) {
    failures.incrementAndGet();
    if (down.compareAndSet(false, true)) {
      LOG.warn(
          "database unavailable for {}: {} (further failures are counted until it answers again)",
          work,
          firstLine(cause));
    }
  }

  /** A call succeeded: ends the outage, if there was one, with its count of failed calls. */
  public void recovered() {
    if (down.compareAndSet(true, false)) {
      LOG.info(
          "database available again for {} ({} calls failed during the outage)",
          work,
          failures.getAndSet(0));
    }
  }

  private static String firstLine(Throwable e) {
    String message = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
    return e.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }
}
