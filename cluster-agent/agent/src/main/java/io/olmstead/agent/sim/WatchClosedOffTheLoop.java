package io.olmstead.agent.sim;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION: the CRUD mock's watch listener with its close and failure callbacks moved off the
 * mock server's event loop. The fabric8 mock (7.8.0) waits in those callbacks for its event sender
 * to stop (up to a minute), while an event the sender is writing waits (up to 30 s) for that same
 * event loop: a watch closed while events flow stalled every request the loop serves for 30 s (an
 * agent restarted mid-upgrade could not list what it manages). Run on a thread of their own, the
 * callbacks wait while the loop writes the event, and nothing else waits on them.
 */
final class WatchClosedOffTheLoop extends WebSocketListener {
  private static final Logger LOG = LoggerFactory.getLogger(WatchClosedOffTheLoop.class);
  private static final ExecutorService CLOSERS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "mock-watch-closer");
            thread.setDaemon(true);
            return thread;
          });

  private final WebSocketListener watch;
  private final ExecutorService closers;

  WatchClosedOffTheLoop(WebSocketListener watch) {
    this(watch, CLOSERS);
  }

  WatchClosedOffTheLoop(WebSocketListener watch, ExecutorService closers) {
    this.watch = watch;
    this.closers = closers;
  }

  @Override
  public void onBeforeAccept(WebSocket webSocket, Response response) {
    watch.onBeforeAccept(webSocket, response);
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    watch.onOpen(webSocket, response);
  }

  @Override
  public void onMessage(WebSocket webSocket, String text) {
    watch.onMessage(webSocket, text);
  }

  @Override
  public void onMessage(WebSocket webSocket, ByteString bytes) {
    watch.onMessage(webSocket, bytes);
  }

  @Override
  public void onMessage(WebSocket webSocket, byte[] bytes) {
    watch.onMessage(webSocket, bytes);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    watch.onClosing(webSocket, code, reason);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    closers.execute(quietly(() -> watch.onClosed(webSocket, code, reason)));
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
    closers.execute(quietly(() -> watch.onFailure(webSocket, failure, response)));
  }

  // The mock's own clean-up may throw once its server stopped (its close hops to an event loop that
  // is gone); on the event loop Vert.x would have logged it, here it must not end the thread.
  private static Runnable quietly(Runnable cleanUp) {
    return () -> {
      try {
        cleanUp.run();
      } catch (RuntimeException e) {
        LOG.debug("mock watch clean-up after its server stopped: {}", e.toString());
      }
    };
  }
}
