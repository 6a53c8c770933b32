package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.dns.AddressResolverOptions;
import io.vertx.core.http.HttpServer;
import java.net.InetAddress;
import java.net.URI;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Red-team cases for one delivery: DNS rebinding, redirects, endless and slow answers. Loopback
 * only.
 */
@Timeout(60)
class WebhookSenderTest {
  private static final byte[] BODY = "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
  private Vertx vertx;
  private final AtomicInteger hits = new AtomicInteger();

  @BeforeEach
  void start() {
    // Vert.x's own resolver (what a connection without a pinned address would use) says rebind.test
    // is loopback
    vertx =
        Vertx.vertx(
            new VertxOptions()
                .setAddressResolverOptions(
                    new AddressResolverOptions()
                        .setHostsValue(Buffer.buffer("127.0.0.1 rebind.test\n"))));
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private HttpServer server(io.vertx.core.Handler<io.vertx.core.http.HttpServerRequest> handler)
      throws Exception {
    return vertx
        .createHttpServer()
        .requestHandler(
            r -> {
              hits.incrementAndGet();
              handler.handle(r);
            })
        .listen(0, "127.0.0.1")
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(50, TimeUnit.SECONDS);
  }

  @Test
  void aNameThatResolvesPublicForTheCheckAndLoopbackForTheConnectionNeverReachesLoopback()
      throws Exception {
    HttpServer loopback = server(r -> r.response().setStatusCode(204).end());
    // the check sees a public address (TEST-NET-3, unrouted); the name then "rebinds" to 127.0.0.1
    WebhookSender sender =
        new WebhookSender(
            vertx,
            4,
            false,
            host -> new InetAddress[] {InetAddress.getByName("203.0.113.7")},
            8_000);
    URI uri = URI.create("http://rebind.test:" + loopback.actualPort() + "/hook");
    assertThatThrownBy(() -> await(sender.send(uri, BODY, "sig")))
        .isInstanceOf(ExecutionException.class);
    assertThat(hits.get()).as("requests that reached the loopback receiver").isZero();
  }

  @Test
  void theConnectionGoesToTheCheckedAddressWithTheUrlsHostHeader() throws Exception {
    java.util.concurrent.atomic.AtomicReference<String> host =
        new java.util.concurrent.atomic.AtomicReference<>();
    HttpServer receiver =
        server(
            r -> {
              host.set(r.getHeader("Host"));
              r.response().setStatusCode(204).end();
            });
    WebhookSender sender =
        new WebhookSender(
            vertx, 4, true, name -> new InetAddress[] {InetAddress.getByName("127.0.0.1")}, 8_000);
    URI uri = URI.create("http://hooks.example:" + receiver.actualPort() + "/hook");
    assertThat(await(sender.send(uri, BODY, "sig"))).isEqualTo(204);
    assertThat(host.get()).isEqualTo("hooks.example:" + receiver.actualPort());
  }

  @Test
  void aPrivateAddressAmongTheNamesAddressesIsRefusedBeforeAnyConnection() throws Exception {
    HttpServer loopback = server(r -> r.response().setStatusCode(204).end());
    WebhookSender sender =
        new WebhookSender(
            vertx,
            4,
            false,
            host ->
                new InetAddress[] {
                  InetAddress.getByName("203.0.113.7"), InetAddress.getByName("::ffff:127.0.0.1")
                },
            8_000);
    assertThatThrownBy(
            () ->
                await(
                    sender.send(
                        URI.create("http://rebind.test:" + loopback.actualPort() + "/"),
                        BODY,
                        "sig")))
        .hasMessageContaining("private address");
    assertThat(hits.get()).isZero();
  }

  @Test
  void aRedirectToLoopbackIsNotFollowed() throws Exception {
    HttpServer target = server(r -> r.response().setStatusCode(204).end());
    int before = hits.get();
    HttpServer redirecting =
        vertx
            .createHttpServer()
            .requestHandler(
                r ->
                    r.response()
                        .setStatusCode(307)
                        .putHeader(
                            "Location", "http://127.0.0.1:" + target.actualPort() + "/internal")
                        .end())
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    WebhookSender sender =
        new WebhookSender(
            vertx, 4, true, name -> new InetAddress[] {InetAddress.getByName("127.0.0.1")}, 8_000);
    assertThat(
            await(
                sender.send(
                    URI.create("http://127.0.0.1:" + redirecting.actualPort() + "/"), BODY, "sig")))
        .isEqualTo(307);
    assertThat(hits.get()).isEqualTo(before);
  }

  @Test
  void aReceiverDrippingItsAnswerIsCutAtTheDeadline() throws Exception {
    HttpServer slow =
        server(
            r -> {
              r.response().setChunked(true).setStatusCode(200);
              long[] timer = new long[1];
              AtomicInteger sent = new AtomicInteger();
              // a byte every 300 ms, well inside the idle timeout, for up to 30 s
              timer[0] =
                  vertx.setPeriodic(
                      300,
                      id -> {
                        if (sent.incrementAndGet() > 100 || r.response().closed()) {
                          vertx.cancelTimer(id);
                          return;
                        }
                        r.response().write("x");
                      });
            });
    WebhookSender sender =
        new WebhookSender(
            vertx, 4, true, name -> new InetAddress[] {InetAddress.getByName("127.0.0.1")}, 2_000);
    // the drip never pauses long enough for the idle timeout: only the whole-answer deadline can
    // end it
    assertThatThrownBy(
            () ->
                await(
                    sender.send(
                        URI.create("http://127.0.0.1:" + slow.actualPort() + "/"), BODY, "sig")))
        .hasMessageContaining("within 2000 ms");
  }

  @Test
  void anEndlessAnswerIsReadNoFurtherThanTheLimit() throws Exception {
    HttpServer endless =
        server(
            r -> {
              r.response().setChunked(true).setStatusCode(200);
              Buffer mb = Buffer.buffer(new byte[1024 * 1024]);
              for (int i = 0; i < 50; i++) {
                r.response().write(mb);
              }
              r.response().end();
            });
    WebhookSender sender =
        new WebhookSender(
            vertx, 4, true, name -> new InetAddress[] {InetAddress.getByName("127.0.0.1")}, 10_000);
    assertThat(
            await(
                sender.send(
                    URI.create("http://127.0.0.1:" + endless.actualPort() + "/"), BODY, "sig")))
        .isEqualTo(200);
  }
}
