package io.olmstead.agent.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Limits;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.ProtocolException;
import io.olmstead.apispec.protocol.ProtocolVersions;
import io.olmstead.apispec.protocol.Welcome;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An agent whose credential was revoked (4007) and that then waits its longest backoff dials again
 * as soon as a new credential is handed to it (what a hosted pool replica that comes back gets),
 * rather than after that backoff. The control plane is a stand-in that closes each session on the
 * revoked credential with 4007 at its hello and welcomes the others.
 */
class CredentialRedialIT {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aClientWaitingItsLongestBackoffAfterRevocationsDialsAtOnceWithAHandedOverCredential()
      throws Exception {
    AtomicInteger revokedSessions = new AtomicInteger();
    AtomicInteger newSessions = new AtomicInteger();
    HttpServer controlPlane =
        vertx
            .createHttpServer()
            .webSocketHandler(
                ws -> {
                  boolean revoked = "Bearer revoked".equals(ws.headers().get("Authorization"));
                  ws.textMessageHandler(
                      text -> {
                        AgentMessage message;
                        try {
                          message = ProtocolCodec.decode(text);
                        } catch (ProtocolException e) {
                          ws.close((short) 1008, "bad message");
                          return;
                        }
                        if (message instanceof Hello && revoked) {
                          revokedSessions.incrementAndGet();
                          ws.close(
                              (short) CloseReason.CREDENTIAL_REVOKED.code(),
                              CloseReason.CREDENTIAL_REVOKED.reason());
                        } else if (message instanceof Hello) {
                          newSessions.incrementAndGet();
                          ws.writeTextMessage(
                              ProtocolCodec.encode(
                                  new Welcome(
                                      ProtocolVersions.CURRENT,
                                      null,
                                      "hc",
                                      "s",
                                      30,
                                      new Limits(1 << 20, 4 << 20, 100, 200),
                                      0)));
                        }
                      });
                })
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    CredentialStorage credential = CredentialStorage.inMemory();
    credential.save("revoked");
    // a longest backoff no test outlives: only a prompt dial can connect with the new credential
    ChannelOptions options =
        ChannelOptions.of(URI.create("http://127.0.0.1:" + controlPlane.actualPort()), "hc", null)
            .withBackoff(Duration.ofMillis(50), Duration.ofHours(1));
    ChannelClient client =
        new ChannelClient(
            vertx,
            vertx.createHttpClient(),
            vertx.createWebSocketClient(),
            options,
            credential,
            desired -> {});
    client.start();

    // the first close and the bounded quick redials after it; then the client waits the hour
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                revokedSessions.get() == 1 + ReconnectPolicy.QUICK_AFTER_REVOCATION
                    && !client.isConnected());
    assertThat(client.lastCloseReason()).contains(CloseReason.CREDENTIAL_REVOKED.reason());

    credential.save("handed-over");
    client.credentialChanged();
    await().atMost(Duration.ofSeconds(20)).until(client::isConnected);
    assertThat(newSessions.get()).isEqualTo(1);
    assertThat(revokedSessions.get())
        .as("no dial with the revoked credential after the quick ones")
        .isEqualTo(1 + ReconnectPolicy.QUICK_AFTER_REVOCATION);
    client.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
