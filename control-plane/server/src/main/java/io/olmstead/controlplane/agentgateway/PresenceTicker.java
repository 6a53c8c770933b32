package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.controlplane.config.GatewaySettings;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's presence tick, a few times per heartbeat period: closes the sessions silent for longer than the
 * disconnect window, renews the replica's presence lease (one row: its connected clusters stay connected while it is
 * renewed, so a heartbeat writes no cluster row), marks connected again the clusters heard since the last tick that
 * are not (one statement that locks in name order, see {@link ChannelStateStore}) and marks disconnected every
 * connected cluster, of any replica, whose replica's lease is older than the window. A tick that comes late (the replica itself was paused: a stop-the-world collection, a frozen VM, a
 * starved event loop) closes no session: during the pause no frame was read either, so the pause is not counted as
 * the agents' silence and their deadlines move by its length. Kept apart from the {@link AgentGateway} so that
 * presence reads as one rule; the gateway owns its timer.
 */
final class PresenceTicker {
  // Logs under the gateway's name, as it did before this class was split out of it: the log lines stay the same.
  private static final Logger LOG = LoggerFactory.getLogger(AgentGateway.class);
  // A tick this many periods after the previous one finds the replica was paused rather than busy.
  private static final int LATE_PERIODS = 2;

  /** What the tick reads of and does to a session ({@link AgentSession} on the replica). */
  interface Watched {
    String cluster();

    /** On the tick's clock. */
    long lastHeardNanos();

    boolean isReady();

    boolean takeHeard();

    void close(CloseReason reason, String detail);
  }

  /** A pause of the replica: ended at {@code endNanos}, lasting {@code lengthNanos} beyond the tick's period. */
  private record Pause(long endNanos, long lengthNanos) { }

  private final Supplier<? extends Collection<? extends Watched>> sessions;
  private final ChannelStateStore state;
  private final GatewaySettings settings;
  private final LongSupplier clock;
  private final Deque<Pause> pauses = new ArrayDeque<>();
  private final Map<String, String> undetached = new ConcurrentHashMap<>();
  private long previousTick;

  /** {@code clock}: nanoseconds, the clock the sessions' last-heard times are read on ({@code System::nanoTime}). */
  PresenceTicker(Supplier<? extends Collection<? extends Watched>> sessions, ChannelStateStore state,
      GatewaySettings settings, LongSupplier clock) {
    this.sessions = sessions;
    this.state = state;
    this.settings = settings;
    this.clock = clock;
    this.previousTick = clock.getAsLong();
  }

  /** How often to tick: three times per heartbeat period, at most twice a second. */
  long periodMillis() {
    return Math.max(500, TimeUnit.SECONDS.toMillis(settings.heartbeatSeconds()) / 3);
  }

  /** A session whose cluster could not be marked disconnected when it closed: tried again at each tick. */
  void detachLater(String cluster, String session) {
    undetached.put(cluster, session);
  }

  void tick() {
    List<String> heard = judge();
    undetached.forEach((cluster, session) -> state.detach(cluster, session)
        .onSuccess(v -> undetached.remove(cluster, session)));
    state.renew(settings.replica()).compose(v -> state.seen(heard))
        .compose(v -> state.sweep(settings.disconnectSeconds()))
        .onSuccess(n -> {
          if (n > 0) {
            LOG.info("{} silent clusters marked disconnected", n);
          }
        })
        .onFailure(e -> LOG.warn("presence update failed: {}", e.toString()));
  }

  /** Closes the sessions silent for longer than the window, pauses of the replica not counted; returns those heard. */
  List<String> judge() {
    long now = clock.getAsLong();
    long period = TimeUnit.MILLISECONDS.toNanos(periodMillis());
    long window = TimeUnit.SECONDS.toNanos(settings.disconnectSeconds());
    long sincePrevious = now - previousTick;
    previousTick = now;
    boolean late = sincePrevious > LATE_PERIODS * period;
    if (late) {
      pauses.addLast(new Pause(now, sincePrevious - period));
      LOG.warn("presence tick {} ms late: the replica was paused; session deadlines moved by as much",
          TimeUnit.NANOSECONDS.toMillis(sincePrevious - period));
    }
    forgetPausesOlderThan(now, window);
    List<String> heard = new ArrayList<>();
    for (Watched s : sessions.get()) {
      if (!late && silence(now, s.lastHeardNanos()) > window) {
        s.close(CloseReason.HEARTBEAT_TIMEOUT, "silent for over " + settings.disconnectSeconds() + "s");
      } else if (s.isReady() && s.takeHeard()) {
        heard.add(s.cluster());
      }
    }
    return heard;
  }

  /** How long a session last heard at {@code lastHeard} has been silent, leaving out the replica's pauses since. */
  private long silence(long now, long lastHeard) {
    long excused = 0;
    for (Pause p : pauses) {
      if (p.endNanos() - lastHeard > 0) {
        excused += p.lengthNanos();
      }
    }
    return now - lastHeard - excused;
  }

  // A pause matters to sessions heard before it; once the window (plus every pause kept) has passed since, every such
  // session has been heard again or closed.
  private void forgetPausesOlderThan(long now, long window) {
    long kept = pauses.stream().mapToLong(Pause::lengthNanos).sum();
    while (!pauses.isEmpty() && now - pauses.peekFirst().endNanos() > window + kept) {
      kept -= pauses.removeFirst().lengthNanos();
    }
  }
}
