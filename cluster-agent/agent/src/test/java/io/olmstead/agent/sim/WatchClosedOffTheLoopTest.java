package io.olmstead.agent.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WatchClosedOffTheLoopTest {
  private final ExecutorService closers = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    closers.shutdownNow();
  }

  /** A watch listener that, like the fabric8 mock's, blocks in onClosed until its sender stops. */
  private static final class BlockingWatch extends WebSocketListener {
    final CountDownLatch senderStopped = new CountDownLatch(1);
    final CountDownLatch closed = new CountDownLatch(1);
    final List<String> threads = new CopyOnWriteArrayList<>();
    final List<String> messages = new CopyOnWriteArrayList<>();

    @Override
    public void onMessage(WebSocket webSocket, String text) {
      messages.add(text);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
      threads.add(Thread.currentThread().getName());
      try {
        senderStopped.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      closed.countDown();
    }
  }

  @Test
  void aWatchClosedWhileItsSenderStillRunsReturnsToTheEventLoopAtOnce() throws Exception {
    BlockingWatch watch = new BlockingWatch();
    WatchClosedOffTheLoop listener = new WatchClosedOffTheLoop(watch, closers);

    // the caller stands for the mock server's event loop: it must get its thread back while the
    // watch still waits for its sender (which needs that loop to finish its write)
    CompletableFuture<String> loop =
        CompletableFuture.supplyAsync(
            () -> {
              listener.onClosed(null, 1000, "closed by the agent");
              return Thread.currentThread().getName();
            });
    String loopThread = loop.get(30, TimeUnit.SECONDS);
    assertThat(watch.closed.getCount()).as("the watch still waits for its sender").isEqualTo(1);

    watch.senderStopped.countDown(); // the loop, free, completed the sender's write
    assertThat(watch.closed.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(watch.threads).singleElement().isNotEqualTo(loopThread);
  }

  @Test
  void everythingButClosingReachesTheWatchOnTheCallersThread() {
    BlockingWatch watch = new BlockingWatch();
    new WatchClosedOffTheLoop(watch, closers).onMessage(null, "{\"type\":\"ADDED\"}");
    assertThat(watch.messages).containsExactly("{\"type\":\"ADDED\"}");
  }

  @Test
  void aCleanUpThatThrowsBecauseTheMockServerStoppedEndsNoThread() throws Exception {
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    CountDownLatch ran = new CountDownLatch(1);
    ExecutorService recording =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = new Thread(task);
              thread.setUncaughtExceptionHandler((t, e) -> uncaught.add(e));
              return thread;
            });
    try {
      WebSocketListener stopped =
          new WebSocketListener() {
            @Override
            public void onFailure(WebSocket webSocket, Throwable failure, Response r) {
              ran.countDown();
              throw new RejectedExecutionException("event executor terminated");
            }
          };
      new WatchClosedOffTheLoop(stopped, recording).onFailure(null, new RuntimeException(), null);
      assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
      recording.shutdown();
      assertThat(recording.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      assertThat(uncaught).isEmpty();
    } finally {
      recording.shutdownNow();
    }
  }
}
