package io.olmstead.agent.channel;

import io.vertx.core.http.HttpClient;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection attempt of a {@link ChannelClient}: with a credential, opens the WebSocket; with
 * only an enrollment token, enrolls first (the credential is saved and the client attempts again).
 * A credential the control plane rejects (401) is dropped when a token can enroll again. An
 * unreachable control plane is logged at INFO once per new reason (an operator must see it), at
 * DEBUG on repeats.
 */
final class ChannelConnector {
  // the client's logger: what operators filter on did not move when this was split out of it
  private static final Logger LOG = LoggerFactory.getLogger(ChannelClient.class);

  /** What came of an attempt; called back where the attempt's futures complete. */
  interface Outcome {
    void opened(WebSocket socket);

    /** Enrolled: the credential is saved, attempt again. */
    void enrolled();

    void retry(long delayMillis);
  }

  private final WebSocketClient wsClient;
  private final Enroller enroller;
  private final CredentialStorage credentials;
  private final Backoff backoff;
  private String lastConnectFailure;

  ChannelConnector(
      HttpClient http, WebSocketClient wsClient, CredentialStorage credentials, Backoff backoff) {
    this.wsClient = wsClient;
    this.enroller = new Enroller(http);
    this.credentials = credentials;
    this.backoff = backoff;
  }

  void attempt(ChannelOptions options, Outcome outcome) {
    Optional<String> credential = credentials.load();
    if (credential.isEmpty()) {
      if (options.enrollmentToken() == null) {
        LOG.error(
            "cluster {}: no credential and no enrollment token; retrying later",
            options.clusterName());
        outcome.retry(backoff.maxMillis());
        return;
      }
      enroller
          .enroll(options)
          .onComplete(
              ar -> {
                if (ar.succeeded()) {
                  credentials.save(ar.result());
                  LOG.info("cluster {}: enrolled", options.clusterName());
                  outcome.enrolled();
                } else {
                  LOG.warn("cluster {}: {}", options.clusterName(), ar.cause().getMessage());
                  outcome.retry(backoff.nextMillis());
                }
              });
      return;
    }
    WebSocketConnectOptions connect =
        new WebSocketConnectOptions()
            .setAbsoluteURI(options.connectUri().toString())
            .putHeader("Authorization", "Bearer " + credential.get());
    wsClient
        .connect(connect)
        .onComplete(
            ar -> {
              if (ar.failed()) {
                if (ar.cause() instanceof UpgradeRejectedException rejected
                    && rejected.getStatus() == 401
                    && options.enrollmentToken() != null) {
                  // The credential was revoked or replaced: enroll again if the token still allows
                  // it.
                  credentials.clear();
                }
                String failure = ar.cause().toString();
                if (!failure.equals(lastConnectFailure)) {
                  LOG.info(
                      "cluster {}: cannot reach the control plane at {}: {} (retrying with backoff)",
                      options.clusterName(),
                      options.connectUri(),
                      failure);
                  lastConnectFailure = failure;
                } else {
                  LOG.debug("cluster {}: connect failed: {}", options.clusterName(), failure);
                }
                outcome.retry(backoff.nextMillis());
                return;
              }
              lastConnectFailure = null;
              outcome.opened(ar.result());
            });
  }
}
