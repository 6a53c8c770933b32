package io.olmstead.agent.health;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the guest Kubernetes API a cheap question (its version) every period on a worker thread,
 * keeps the last answer for readiness, and logs at INFO when the API becomes unreachable and when
 * it is back (once per change, not per try).
 */
public final class KubeApiProbe implements ReadinessCheck {
  private static final Logger LOG = LoggerFactory.getLogger(KubeApiProbe.class);
  private final Vertx vertx;
  private final Callable<?> ask;
  private final String server;
  private final Duration period;
  // null until the first answer; then "" when reachable, else the last error
  private final AtomicReference<String> last = new AtomicReference<>();
  private long timer = -1;

  public KubeApiProbe(Vertx vertx, Callable<?> ask, String server, Duration period) {
    this.vertx = vertx;
    this.ask = ask;
    this.server = server;
    this.period = period;
  }

  public void start() {
    probe();
    timer = vertx.setPeriodic(period.toMillis(), id -> probe());
  }

  public void stop() {
    vertx.cancelTimer(timer);
  }

  @Override
  public Optional<String> problem() {
    String outcome = last.get();
    if (outcome == null) {
      return Optional.of("the Kubernetes API at " + server + " has not answered yet");
    }
    return outcome.isEmpty()
        ? Optional.empty()
        : Optional.of("cannot reach the Kubernetes API at " + server + ": " + outcome);
  }

  private void probe() {
    vertx
        .executeBlocking(
            () -> {
              ask.call();
              return "";
            },
            false)
        .recover(e -> Future.succeededFuture(describe(e)))
        .onSuccess(this::record);
  }

  private void record(String outcome) {
    String before = last.getAndSet(outcome);
    if (outcome.isEmpty() && before != null && !before.isEmpty()) {
      LOG.info("the Kubernetes API at {} is reachable again", server);
    } else if (!outcome.isEmpty() && !outcome.equals(before)) {
      LOG.info("cannot reach the Kubernetes API at {}: {}", server, outcome);
    }
  }

  /** The root cause's message, at most 300 characters (what a probe body or a log line shows). */
  public static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return message.length() > 300 ? message.substring(0, 300) + "..." : message;
  }
}
