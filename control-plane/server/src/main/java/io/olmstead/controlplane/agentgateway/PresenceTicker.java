package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.TickPauses;
import io.olmstead.controlplane.config.GatewaySettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's presence tick, a few times per heartbeat period: closes the sessions silent for
 * longer than the disconnect window, renews the replica's presence lease (one row: its connected
 * clusters stay connected while it is renewed, so a heartbeat writes no cluster row), marks
 * connected again the clusters heard since the last tick that are not (one statement that locks in
 * name order, see {@link ChannelStateStore}) and marks disconnected every connected cluster, of any
 * replica, whose replica's lease is older than the window. A tick that comes late (the replica
 * itself was paused: a stop-the-world collection, a frozen VM, a starved event loop) closes no
 * session: during the pause no frame was read either, so the pause is not counted as the agents'
 * silence and their deadlines move by its length. Kept apart from the {@link AgentGateway} so that
 * presence reads as one rule; the gateway owns its timer. The late-tick rule is {@link TickPauses},
 * the one the pool keep-alive on both ends also follows.
 */
final class PresenceTicker {
  // Logs under the gateway's name, as it did before this class was split out of it: the log lines
  // stay the same.
  private static final Logger LOG = LoggerFactory.getLogger(AgentGateway.class);

  /** What the tick reads of and does to a session ({@link AgentSession} on the replica). */
  interface Watched {
    String cluster();

    /** On the tick's clock. */
    long lastHeardNanos();

    boolean isReady();

    boolean takeHeard();

    void close(CloseReason reason, String detail);
  }

  private final Supplier<? extends Collection<? extends Watched>> sessions;
  private final ChannelStateStore state;
  private final GatewaySettings settings;
  private final LongSupplier clock;
  private final TickPauses pauses;
  private final Map<String, String> undetached = new ConcurrentHashMap<>();

  /**
   * {@code clock}: nanoseconds, the clock the sessions' last-heard times are read on ({@code
   * System::nanoTime}).
   */
  PresenceTicker(
      Supplier<? extends Collection<? extends Watched>> sessions,
      ChannelStateStore state,
      GatewaySettings settings,
      LongSupplier clock) {
    this.sessions = sessions;
    this.state = state;
    this.settings = settings;
    this.clock = clock;
    this.pauses = new TickPauses(clock.getAsLong());
  }

  /** How often to tick: three times per heartbeat period, at most twice a second. */
  long periodMillis() {
    return Math.max(500, TimeUnit.SECONDS.toMillis(settings.heartbeatSeconds()) / 3);
  }

  /**
   * A session whose cluster could not be marked disconnected when it closed: tried again at each
   * tick.
   */
  void detachLater(String cluster, String session) {
    undetached.put(cluster, session);
  }

  void tick() {
    List<String> heard = judge();
    undetached.forEach(
        (cluster, session) ->
            state.detach(cluster, session).onSuccess(v -> undetached.remove(cluster, session)));
    state
        .renew(settings.replica())
        .compose(v -> state.seen(heard))
        .compose(v -> state.sweep(settings.disconnectSeconds()))
        .onSuccess(
            n -> {
              if (n > 0) {
                LOG.info("{} silent clusters marked disconnected", n);
              }
            })
        .onFailure(e -> LOG.warn("presence update failed: {}", e.toString()));
  }

  /**
   * Closes the sessions silent for longer than the window, pauses of the replica not counted;
   * returns those heard.
   */
  List<String> judge() {
    long now = clock.getAsLong();
    long window = TimeUnit.SECONDS.toNanos(settings.disconnectSeconds());
    long late = pauses.tick(now, TimeUnit.MILLISECONDS.toNanos(periodMillis()), window);
    if (late > 0) {
      LOG.warn(
          "presence tick {} ms late: the replica was paused; session deadlines moved by as much",
          TimeUnit.NANOSECONDS.toMillis(late));
    }
    List<String> heard = new ArrayList<>();
    for (Watched s : sessions.get()) {
      if (late == 0 && pauses.silence(now, s.lastHeardNanos()) > window) {
        s.close(
            CloseReason.HEARTBEAT_TIMEOUT, "silent for over " + settings.disconnectSeconds() + "s");
      } else if (s.isReady() && s.takeHeard()) {
        heard.add(s.cluster());
      }
    }
    return heard;
  }
}
