package io.olmstead.controlplane.db;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * The control plane's time as a {@code timestamptz} parameter: the clock's instant cut to
 * PostgreSQL's microseconds, in UTC, so that a value read back equals the one written.
 */
public final class DbTime {
  private DbTime() {}

  public static OffsetDateTime now(Clock clock) {
    return OffsetDateTime.ofInstant(instant(clock), ZoneOffset.UTC);
  }

  /** The clock's instant cut to PostgreSQL's microseconds. */
  public static Instant instant(Clock clock) {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }
}
