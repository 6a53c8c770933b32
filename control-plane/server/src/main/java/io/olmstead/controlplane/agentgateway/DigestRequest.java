package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The checks every agent fetch of immutable content by digest makes: a live cluster credential
 * (401), a sha256 digest (400), and {@code If-None-Match} on the digest's ETag (304). Answers those
 * itself; the rest is the caller's.
 */
final class DigestRequest {
  private static final Pattern DIGEST = Pattern.compile("^sha256:[a-f0-9]{64}$");

  private DigestRequest() {}

  /**
   * The digest's ETag when the caller should serve the content; empty when this already answered.
   */
  static Future<Optional<String>> admit(RoutingContext ctx, CredentialStore credentials) {
    String digest = ctx.pathParam("digest");
    Optional<String> credential = BearerToken.of(ctx.request());
    if (credential.isEmpty()) {
      Problems.send(
          ctx.response(),
          Problems.problem(
              401, "unauthorized", "Unauthorized", "a cluster credential is " + "required"));
      return Future.succeededFuture(Optional.empty());
    }
    return credentials
        .authenticate(credential.get())
        .map(
            cluster -> {
              if (cluster.isEmpty()) {
                Problems.send(
                    ctx.response(),
                    Problems.problem(
                        401,
                        "unauthorized",
                        "Unauthorized",
                        "a live cluster credential is required"));
                return Optional.empty();
              }
              if (digest == null || !DIGEST.matcher(digest).matches()) {
                Problems.send(
                    ctx.response(),
                    Problems.problem(400, "bad-request", "Bad request", "not a sha256 digest"));
                return Optional.empty();
              }
              String etag = "\"" + digest + "\"";
              if (etag.equals(ctx.request().getHeader("If-None-Match"))) {
                ctx.response().setStatusCode(304).putHeader("ETag", etag).end();
                return Optional.empty();
              }
              return Optional.of(etag);
            });
  }
}
