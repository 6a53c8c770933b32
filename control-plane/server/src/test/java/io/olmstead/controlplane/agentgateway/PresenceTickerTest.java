package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.controlplane.config.GatewaySettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PresenceTickerTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
  private final List<FakeSession> sessions = new ArrayList<>();
  // heartbeat 10 s, disconnect window 30 s: a tick every 3.3 s
  private final PresenceTicker ticker =
      new PresenceTicker(
          () -> sessions,
          new ChannelStateStore(null, Clock.systemUTC()),
          GatewaySettings.fromEnvironment(
              Map.of(
                  GatewaySettings.HEARTBEAT_SECONDS,
                  "10",
                  GatewaySettings.DISCONNECT_SECONDS,
                  "30")),
          clock::get);

  @Test
  void aTickLateAfterTheReplicaWasPausedClosesNoSession() {
    FakeSession healthy = session("a");
    ticker.judge();
    clock.addAndGet(35 * SECOND); // the replica itself was paused: no tick, no frame read

    ticker.judge();

    assertThat(healthy.closedWith).isNull();
  }

  @Test
  void theDeadlineMovesByTheLatenessSoASessionStillSilentAfterThePauseIsClosedLater() {
    FakeSession silent = session("a");
    ticker.judge();
    clock.addAndGet(35 * SECOND);
    ticker.judge();

    stepTicks(7); // 27 s of its own silence: within the window
    assertThat(silent.closedWith).isNull();
    stepTicks(2); // 33 s

    assertThat(silent.closedWith).isEqualTo(CloseReason.HEARTBEAT_TIMEOUT);
  }

  @Test
  void aSessionSilentForLongerThanTheWindowOnTimelyTicksIsClosed() {
    FakeSession silent = session("a");
    ticker.judge();

    stepTicks(10);

    assertThat(silent.closedWith).isEqualTo(CloseReason.HEARTBEAT_TIMEOUT);
  }

  @Test
  void aSessionHeardAfterThePauseIsJudgedFromWhenItWasHeard() {
    FakeSession talking = session("a");
    ticker.judge();
    clock.addAndGet(35 * SECOND);
    talking.lastHeard = clock.get();
    ticker.judge();

    stepTicks(8);

    assertThat(talking.closedWith).isNull();
  }

  private void stepTicks(int n) {
    for (int i = 0; i < n; i++) {
      clock.addAndGet(ticker.periodMillis() * 1_000_000L);
      ticker.judge();
    }
  }

  private FakeSession session(String cluster) {
    FakeSession s = new FakeSession(cluster, clock.get());
    sessions.add(s);
    return s;
  }

  private static final class FakeSession implements PresenceTicker.Watched {
    private final String cluster;
    private long lastHeard;
    private CloseReason closedWith;

    FakeSession(String cluster, long lastHeard) {
      this.cluster = cluster;
      this.lastHeard = lastHeard;
    }

    @Override
    public String cluster() {
      return cluster;
    }

    @Override
    public long lastHeardNanos() {
      return lastHeard;
    }

    @Override
    public boolean isReady() {
      return closedWith == null;
    }

    @Override
    public boolean takeHeard() {
      return false;
    }

    @Override
    public void close(CloseReason reason, String detail) {
      closedWith = reason;
    }
  }
}
