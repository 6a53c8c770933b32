package io.olmstead.controlplane.cli;

import io.olmstead.controlplane.ControlPlane;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.store.StartupException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Starts a control plane from the command line and keeps the process alive until it is told to stop. */
final class Foreground {
  private Foreground() {
  }

  static ControlPlane start(ControlPlaneConfig config) {
    try {
      return ControlPlane.start(config).toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
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

  /** Blocks until SIGTERM/SIGINT, then runs {@code onStop}. */
  static void awaitShutdown(Runnable onStop) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      onStop.run();
      stopped.countDown();
    }, "olmstead-shutdown"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
