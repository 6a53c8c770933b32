package io.olmstead.controlplane.webhooks;

import io.olmstead.controlplane.http.AddressRanges;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Posts one delivery. The receiver's name is resolved once, on a worker, every address it gives is
 * checked, and the connection goes to the address that was checked ({@link
 * RequestOptions#setServer}; the Host header and TLS name stay the URL's): resolving again to
 * connect would let a name that answers a public address to the check and 127.0.0.1 to the
 * connection (DNS rebinding) reach the control plane's own network. Redirects are not followed. A
 * send is bounded in time as a whole ({@code deadlineMillis}: a receiver dripping a byte every few
 * seconds cannot hold a slot past it) and in the response read ({@link #MAX_RESPONSE_BYTES}).
 */
final class WebhookSender {
  static final int MAX_RESPONSE_BYTES = 64 * 1024;
  static final long DEADLINE_MILLIS = 30_000;

  /** How names are resolved (the JVM's resolver; a test's own). */
  interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private final Vertx vertx;
  private final HttpClient http;
  private final boolean allowPrivate;
  private final Resolver resolver;
  private final long deadlineMillis;

  WebhookSender(
      Vertx vertx,
      int maxConnections,
      boolean allowPrivate,
      Resolver resolver,
      long deadlineMillis) {
    this.vertx = vertx;
    this.allowPrivate = allowPrivate;
    this.resolver = resolver;
    this.deadlineMillis = deadlineMillis;
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setConnectTimeout(5_000)
                .setIdleTimeout(10)
                .setMaxPoolSize(maxConnections)
                .setKeepAlive(false));
  }

  /** The receiver's status code; a failed future when refused, unreachable or past the deadline. */
  Future<Integer> send(URI uri, byte[] body, String signature) {
    return target(uri).compose(address -> post(uri, address, body, signature));
  }

  /** The one address the delivery connects to, after checking every address the name has. */
  private Future<InetAddress> target(URI uri) {
    return vertx.executeBlocking(
        () -> {
          InetAddress[] addresses = resolver.resolve(uri.getHost());
          if (!allowPrivate) {
            for (InetAddress address : addresses) {
              if (AddressRanges.isPrivate(address)) {
                throw new IllegalStateException(
                    "refused: " + uri.getHost() + " resolves to a private address");
              }
            }
          }
          return addresses[0];
        },
        false);
  }

  private Future<Integer> post(URI uri, InetAddress address, byte[] body, String signature) {
    int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setAbsoluteURI(uri.toString())
            .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
            .setFollowRedirects(false)
            .setIdleTimeout(10_000)
            .setConnectTimeout(5_000)
            .putHeader("Content-Type", "application/cloudevents+json; charset=utf-8")
            .putHeader(Signatures.HEADER, signature)
            .putHeader("User-Agent", "olmstead-webhooks");
    Promise<Integer> result = Promise.promise();
    AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
    long timer =
        vertx.setTimer(
            deadlineMillis,
            id -> {
              if (result.tryFail(
                      new TimeoutException("no complete answer within " + deadlineMillis + " ms"))
                  && sent.get() != null) {
                sent.get().reset();
              }
            });
    http.request(options)
        .compose(
            request -> {
              sent.set(request);
              return request.send(Buffer.buffer(body));
            })
        .compose(
            response -> {
              AtomicInteger read = new AtomicInteger();
              response.handler(
                  chunk -> {
                    if (read.addAndGet(chunk.length()) > MAX_RESPONSE_BYTES) {
                      response.request().reset();
                    }
                  });
              return response
                  .end()
                  .map(v -> response.statusCode())
                  .recover(e -> Future.succeededFuture(response.statusCode()));
            })
        .onComplete(
            ar -> {
              vertx.cancelTimer(timer);
              if (ar.succeeded()) {
                result.tryComplete(ar.result());
              } else {
                result.tryFail(ar.cause());
              }
            });
    return result.future();
  }
}
