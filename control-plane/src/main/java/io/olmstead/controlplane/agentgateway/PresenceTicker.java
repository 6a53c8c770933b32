package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.CloseReason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's presence tick, a few times per heartbeat period: closes the sessions silent for longer than the
 * disconnect window, marks the clusters heard since the last tick connected (one statement that locks in name order,
 * see {@link ChannelStateStore}) and marks every cluster, of any replica, silent for longer than the window
 * disconnected. Kept apart from the {@link AgentGateway} so that presence reads as one rule; the gateway owns its
 * timer.
 */
final class PresenceTicker {
  // Logs under the gateway's name, as it did before this class was split out of it: the log lines stay the same.
  private static final Logger LOG = LoggerFactory.getLogger(AgentGateway.class);

  private final SessionRegistry sessions;
  private final ChannelStateStore state;
  private final GatewaySettings settings;

  PresenceTicker(SessionRegistry sessions, ChannelStateStore state, GatewaySettings settings) {
    this.sessions = sessions;
    this.state = state;
    this.settings = settings;
  }

  /** How often to tick: three times per heartbeat period, at most twice a second. */
  long periodMillis() {
    return Math.max(500, TimeUnit.SECONDS.toMillis(settings.heartbeatSeconds()) / 3);
  }

  void tick() {
    long now = System.nanoTime();
    long window = TimeUnit.SECONDS.toNanos(settings.disconnectSeconds());
    List<String> heard = new ArrayList<>();
    for (AgentSession s : sessions.all()) {
      if (now - s.lastHeardNanos() > window) {
        s.close(CloseReason.HEARTBEAT_TIMEOUT, "silent for over " + settings.disconnectSeconds() + "s");
      } else if (s.isReady() && s.takeHeard()) {
        heard.add(s.cluster());
      }
    }
    state.seen(heard).compose(v -> state.sweep(settings.disconnectSeconds()))
        .onSuccess(n -> {
          if (n > 0) {
            LOG.info("{} silent clusters marked disconnected", n);
          }
        })
        .onFailure(e -> LOG.warn("presence update failed: {}", e.toString()));
  }
}
