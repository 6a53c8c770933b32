package io.olmstead.controlplane.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that runs at the real rate from a point the test moves forward: a test waits for a window
 * or a freeze's end by jumping to it, while soaks and deadlines shorter than the test still pass in
 * real time.
 */
public final class MovableClock extends Clock {
  private final AtomicReference<Duration> ahead = new AtomicReference<>(Duration.ZERO);

  /** Moves the clock forward to {@code at} (never back: time the server has seen stays seen). */
  public void jumpTo(Instant at) {
    ahead.updateAndGet(
        current -> {
          Duration wanted = Duration.between(Instant.now(), at);
          return wanted.compareTo(current) > 0 ? wanted : current;
        });
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(ahead.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a UTC clock");
  }
}
