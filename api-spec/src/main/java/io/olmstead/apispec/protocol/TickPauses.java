package io.olmstead.apispec.protocol;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The keep-alive rule of both ends of a channel, for a periodic tick that closes peers silent for
 * longer than a window: a tick more than {@value #LATE_PERIODS} periods after the previous one
 * finds its own process was paused (a stop-the-world collection, a frozen VM, a starved event loop)
 * and closes nobody, and a pause is left out of every silence that spans it: during the pause no
 * frame was read either, so it is not the peers' silence. Times are nanoseconds on the caller's
 * clock (its sessions' last-heard times are read on the same clock). Not thread-safe: one ticker
 * calls it.
 */
public final class TickPauses {
  /**
   * A tick this many periods after the previous one finds the process was paused rather than busy.
   */
  public static final int LATE_PERIODS = 2;

  /** A pause: ended at {@code endNanos}, lasting {@code lengthNanos} beyond the tick's period. */
  private record Pause(long endNanos, long lengthNanos) {}

  private final Deque<Pause> pauses = new ArrayDeque<>();
  private long previousTick;

  /** {@code startNanos}: when the ticker started (its first tick is measured from there). */
  public TickPauses(long startNanos) {
    this.previousTick = startNanos;
  }

  /**
   * Records a tick at {@code now} of a ticker with this {@code period} and silence {@code window};
   * returns how late it is (nanoseconds beyond the period) when it is late, in which case it must
   * close nobody, else zero. A tick that comes early (a ticker run also on demand) is never late.
   */
  public long tick(long now, long period, long window) {
    long sincePrevious = now - previousTick;
    previousTick = now;
    long late = sincePrevious > LATE_PERIODS * period ? sincePrevious - period : 0;
    if (late > 0) {
      pauses.addLast(new Pause(now, late));
    }
    forgetPausesOlderThan(now, window);
    return late;
  }

  /**
   * How long a peer last heard at {@code lastHeard} has been silent at {@code now}, the pauses
   * since left out.
   */
  public long silence(long now, long lastHeard) {
    long excused = 0;
    for (Pause p : pauses) {
      if (p.endNanos() - lastHeard > 0) {
        excused += p.lengthNanos();
      }
    }
    return now - lastHeard - excused;
  }

  // A pause matters to peers heard before it; once the window (plus every pause kept) has passed
  // since, every such
  // peer has been heard again or closed.
  private void forgetPausesOlderThan(long now, long window) {
    long kept = pauses.stream().mapToLong(Pause::lengthNanos).sum();
    while (!pauses.isEmpty() && now - pauses.peekFirst().endNanos() > window + kept) {
      kept -= pauses.removeFirst().lengthNanos();
    }
  }
}
