package io.olmstead.controlplane.registry;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A registry that is stuck, on 127.0.0.1: {@link #silent()} accepts connections and never answers;
 * {@link #dripping()} answers every request with a chunked body that sends one byte every 200 ms
 * forever (no read timeout ever fires); {@link #endlessManifest()} answers manifests with a body
 * that never ends (see {@link EndlessManifest}). Counts the connections it accepted. Threads and
 * sockets end with {@link #close()}.
 */
final class StuckRegistry implements AutoCloseable {
  private final ServerSocket server;
  private final Consumer<Socket> answer;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final Thread acceptor;

  private StuckRegistry(Consumer<Socket> answer) {
    this.answer = answer;
    try {
      this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.acceptor = new Thread(this::accept, "stuck-registry");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  static StuckRegistry silent() {
    return new StuckRegistry(null);
  }

  static StuckRegistry dripping() {
    return new StuckRegistry(StuckRegistry::drip);
  }

  /** A registry whose manifests never end; {@code manifests} counts what it wrote. */
  static StuckRegistry endlessManifest(EndlessManifest manifests) {
    return new StuckRegistry(manifests::serve);
  }

  String host() {
    return "127.0.0.1:" + server.getLocalPort();
  }

  int connections() {
    return connections.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        connections.incrementAndGet();
        accepted.add(s);
        if (answer != null) {
          Thread t = new Thread(() -> answer.accept(s), "stuck-registry-answer");
          t.setDaemon(true);
          t.start();
        }
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void drip(Socket s) {
    try (s) {
      s.getInputStream().read(new byte[8192]); // the request line and headers (enough to answer)
      OutputStream out = s.getOutputStream();
      out.write(
          ("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.oci.image.manifest.v1+json\r\n"
                  + "Transfer-Encoding: chunked\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      for (int i = 0; i < 3000; i++) { // bounded: 10 minutes at most
        out.write("1\r\n \r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(200);
      }
    } catch (IOException e) {
      // the client went away: what the deadline is for
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    try {
      server.close();
      for (Socket s : accepted) {
        s.close();
      }
    } catch (IOException e) {
      // test teardown
    }
  }
}
