package io.olmstead.controlplane.cli;

import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.db.StartupException;
import io.olmstead.controlplane.http.StartupGate;
import io.olmstead.controlplane.server.ControlPlane;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts a control plane from the command line and keeps the process alive until it is told to
 * stop.
 */
final class Foreground {
  private Foreground() {}

  static ControlPlane start(ControlPlaneConfig config) {
    return start(config, StartupGate.open());
  }

  static ControlPlane start(ControlPlaneConfig config, StartupGate gate) {
    try {
      return ControlPlane.start(config, gate)
          .toCompletionStage()
          .toCompletableFuture()
          .get(5, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new StartupException("start failed: " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      throw new StartupException("start did not finish within 5 minutes");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartupException("interrupted while starting");
    }
  }

  /**
   * Blocks until SIGTERM/SIGINT, then runs {@code onStop} once and exits. The signals are caught
   * here rather than left to shutdown hooks because hooks run concurrently: the embedded database's
   * own hook (dev mode) would stop PostgreSQL while the control plane still holds connections. A
   * hook still covers any other way the JVM ends.
   */
  static void awaitShutdown(Runnable onStop) {
    CountDownLatch signalled = new CountDownLatch(1);
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stopOnce =
        () -> {
          if (stopped.compareAndSet(false, true)) {
            onStop.run();
          }
        };
    Runtime.getRuntime().addShutdownHook(new Thread(stopOnce, "olmstead-shutdown"));
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> signalled.countDown());
      } catch (IllegalArgumentException e) {
        // the platform does not know this signal (or the JVM reserves it): the shutdown hook covers
        // it
      }
    }
    try {
      signalled.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stopOnce.run();
    System.exit(0);
  }
}
