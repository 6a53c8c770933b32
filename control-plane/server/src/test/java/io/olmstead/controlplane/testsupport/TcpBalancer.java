package io.olmstead.controlplane.testsupport;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP load balancer on 127.0.0.1 in front of control-plane replicas, as a Kubernetes Service is:
 * each new connection goes to the next backend in turn, skipping one that refuses; when a backend
 * dies its connections close, so clients reconnect and land on a live replica. {@link #freeze()}
 * makes every path through it half-open, as a partition does: connections stay open on both sides
 * but nothing passes, not even a close; {@link #thaw()} ends the partition for new connections (the
 * frozen ones stay silent, as after a real one).
 */
public final class TcpBalancer implements AutoCloseable {
  private final NetServer server;
  private final NetClient client;
  private final List<Integer> backends = new CopyOnWriteArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private volatile boolean frozen;
  // connections accepted before the last freeze never pass anything again
  private volatile int generation;

  private TcpBalancer(Vertx vertx) {
    this.client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(2000));
    this.server = vertx.createNetServer().connectHandler(this::accept);
  }

  /** Listens on a free port of 127.0.0.1. */
  public static TcpBalancer start(Vertx vertx) throws Exception {
    TcpBalancer balancer = new TcpBalancer(vertx);
    balancer
        .server
        .listen(0, "127.0.0.1")
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
    return balancer;
  }

  public int port() {
    return server.actualPort();
  }

  public void addBackend(int port) {
    backends.add(port);
  }

  /** From now on accepts connections and holds them, forwarding no byte and no close either way. */
  public void freeze() {
    frozen = true;
    generation++;
  }

  /** New connections pass again; those open when it froze stay half-open. */
  public void thaw() {
    frozen = false;
  }

  private void accept(NetSocket in) {
    in.pause();
    if (frozen) {
      return;
    }
    int mine = generation;
    connect(next.getAndIncrement(), backends.size())
        .onSuccess(
            out -> {
              in.closeHandler(v -> closeUnlessFrozen(out, mine));
              out.closeHandler(v -> closeUnlessFrozen(in, mine));
              in.exceptionHandler(e -> closeUnlessFrozen(out, mine));
              out.exceptionHandler(e -> closeUnlessFrozen(in, mine));
              in.handler(
                  b -> {
                    if (passes(mine)) {
                      out.write(b);
                    }
                  });
              out.handler(
                  b -> {
                    if (passes(mine)) {
                      in.write(b);
                    }
                  });
              in.resume();
            })
        .onFailure(e -> in.close());
  }

  private boolean passes(int connectionGeneration) {
    return !frozen && connectionGeneration == generation;
  }

  private void closeUnlessFrozen(NetSocket socket, int connectionGeneration) {
    if (passes(connectionGeneration)) {
      socket.close();
    }
  }

  /** Tries the backends from {@code from} on, each once. */
  private Future<NetSocket> connect(int from, int left) {
    if (left <= 0 || backends.isEmpty()) {
      return Future.failedFuture("no backend answers");
    }
    int port = backends.get(Math.floorMod(from, backends.size()));
    return client.connect(port, "127.0.0.1").recover(e -> connect(from + 1, left - 1));
  }

  @Override
  public void close() {
    server
        .close()
        .eventually(() -> client.close())
        .toCompletionStage()
        .toCompletableFuture()
        .orTimeout(10, TimeUnit.SECONDS)
        .exceptionally(e -> null)
        .join();
  }
}
