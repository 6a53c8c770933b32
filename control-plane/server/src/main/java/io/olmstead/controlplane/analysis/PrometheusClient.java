package io.olmstead.controlplane.analysis;

import io.olmstead.controlplane.config.PrometheusSettings;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.codec.BodyCodec;
import java.time.Instant;
import java.util.Map;

/**
 * Asks the configured Prometheus for instant queries ({@code GET /api/v1/query} with {@code time})
 * with the Vert.x WebClient: never blocks, every request bounded in time (the whole exchange) and
 * in response size. Any trouble becomes a {@link QueryOutcome}, never a failed future.
 */
public final class PrometheusClient {
  private final Vertx vertx;
  private final PrometheusSettings settings;
  private final WebClient client;

  public PrometheusClient(Vertx vertx, PrometheusSettings settings) {
    this.vertx = vertx;
    this.settings = settings;
    int millis = settings.timeoutSeconds() * 1000;
    this.client =
        WebClient.create(
            vertx,
            new WebClientOptions()
                .setConnectTimeout(millis)
                .setMaxPoolSize(8)
                .setKeepAlive(true)
                .setFollowRedirects(false));
  }

  /** Whether a Prometheus is configured. */
  public boolean configured() {
    return settings.url().isPresent();
  }

  /** Evaluates {@code query} at {@code time}. */
  public Future<QueryOutcome> query(String query, Instant time) {
    if (settings.url().isEmpty()) {
      return Future.succeededFuture(
          new QueryOutcome.Unavailable(
              "no Prometheus configured (" + PrometheusSettings.URL + ")"));
    }
    return token()
        .compose(token -> send(query, time, token))
        .recover(
            e ->
                Future.succeededFuture(
                    new QueryOutcome.Unavailable(
                        e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())));
  }

  /**
   * A query as the API checks it before storing it: placeholders replaced by sample values,
   * evaluated now; {@link QueryOutcome.Refused} when Prometheus cannot parse it.
   */
  public Future<QueryOutcome> validate(String query) {
    return query(
        PromQl.substitute(
            query,
            Map.of(
                "cluster",
                "validate",
                "wave",
                "validate",
                "namespace",
                "validate",
                "package",
                "validate")),
        Instant.now());
  }

  private Future<String> token() {
    if (settings.tokenFile().isEmpty()) {
      return Future.succeededFuture(null);
    }
    return vertx
        .fileSystem()
        .readFile(settings.tokenFile().get())
        .map(b -> b.toString().trim())
        .recover(e -> Future.failedFuture("cannot read " + PrometheusSettings.TOKEN_FILE));
  }

  private Future<QueryOutcome> send(String query, Instant time, String token) {
    long millis = settings.timeoutSeconds() * 1000L;
    Promise<QueryOutcome> outcome = Promise.promise();
    String tooLarge = "the answer is larger than " + settings.maxResponseBytes() + " bytes";
    LimitedBody body =
        new LimitedBody(
            settings.maxResponseBytes(),
            () -> outcome.tryComplete(new QueryOutcome.Unavailable(tooLarge)));
    HttpRequest<Void> request =
        client
            .requestAbs(HttpMethod.GET, settings.url().get() + "/api/v1/query")
            .addQueryParam("query", query)
            .addQueryParam("time", String.valueOf(time.getEpochSecond() + time.getNano() / 1e9))
            .timeout(millis)
            .as(BodyCodec.pipe(body, false));
    if (token != null) {
      request.bearerTokenAuthentication(token);
    }
    // the whole exchange, also a server that drips its answer one byte at a time
    long timer =
        vertx.setTimer(
            millis,
            id ->
                outcome.tryComplete(
                    new QueryOutcome.Unavailable(
                        "no answer within " + settings.timeoutSeconds() + "s")));
    request
        .send()
        .onComplete(
            ar -> {
              vertx.cancelTimer(timer);
              if (body.overflow()) {
                outcome.tryComplete(new QueryOutcome.Unavailable(tooLarge));
              } else if (ar.failed()) {
                outcome.tryComplete(
                    new QueryOutcome.Unavailable(
                        ar.cause().getMessage() == null
                            ? ar.cause().getClass().getSimpleName()
                            : ar.cause().getMessage()));
              } else {
                outcome.tryComplete(PromResponse.parse(ar.result().statusCode(), body.text()));
              }
            });
    return outcome.future();
  }

  public void close() {
    client.close();
  }
}
