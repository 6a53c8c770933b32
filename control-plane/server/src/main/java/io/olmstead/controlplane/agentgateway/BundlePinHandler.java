package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;

/**
 * {@code GET /api/v1/agent/bundle-pins?image=REF}: the digest a bundle image named by tag was
 * pinned to for the current catalog revisions naming it (resolved once per revision by the control
 * plane), so an agent fetches its objects by digest like any other bundle and never resolves a tag
 * itself. 409 while the tag is not resolved, naming the state.
 */
final class BundlePinHandler implements Handler<RoutingContext> {
  // the latest pin among current revisions (two catalogs may have pinned one tag at different
  // moments)
  private static final String PIN =
      "SELECT b.image_digest, b.pin_error FROM catalog_bundles b "
          + "JOIN catalogs c ON c.name = b.catalog AND c.current_revision = b.revision "
          + "WHERE b.image = $1 AND b.embedded IS NOT TRUE "
          + "ORDER BY b.image_digest IS NULL, b.pinned_at DESC NULLS LAST LIMIT 1";
  private static final int MAX_IMAGE = 512;

  private final Pool pool;
  private final CredentialStore credentials;

  BundlePinHandler(Pool pool, CredentialStore credentials) {
    this.pool = pool;
    this.credentials = credentials;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String image = ctx.request().getParam("image");
    Optional<String> credential = BearerToken.of(ctx.request());
    if (credential.isEmpty()) {
      Problems.send(
          ctx.response(),
          Problems.problem(
              401, "unauthorized", "Unauthorized", "a cluster credential is " + "required"));
      return;
    }
    credentials
        .authenticate(credential.get())
        .compose(
            cluster -> {
              if (cluster.isEmpty()) {
                Problems.send(
                    ctx.response(),
                    Problems.problem(
                        401,
                        "unauthorized",
                        "Unauthorized",
                        "a live cluster credential is required"));
                return Future.<Void>succeededFuture();
              }
              if (image == null || image.isBlank() || image.length() > MAX_IMAGE) {
                Problems.send(
                    ctx.response(),
                    Problems.withErrors(
                        Problems.problem(
                            400,
                            "bad-request",
                            "Bad request",
                            "image is required (at most " + MAX_IMAGE + " characters)"),
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("field", "query.image")
                                    .put("message", "required, at most 512 characters"))));
                return Future.<Void>succeededFuture();
              }
              return pool.preparedQuery(PIN)
                  .execute(Tuple.of(image))
                  .<Void>map(
                      rows -> {
                        answer(ctx, image, rows.size() == 0 ? null : rows.iterator().next());
                        return null;
                      });
            })
        .onFailure(
            e ->
                Problems.send(
                    ctx.response(), Problems.problem(500, "internal", "Internal error", null)));
  }

  private static void answer(RoutingContext ctx, String image, Row row) {
    if (row == null) {
      Problems.send(
          ctx.response(),
          Problems.problem(
              404,
              "not-found",
              "Not found",
              "no current catalog revision names bundle image " + image));
      return;
    }
    String digest = row.getString("image_digest");
    if (digest == null) {
      String error = row.getString("pin_error");
      String state = error == null ? "Pending" : "Failed";
      Problems.send(
          ctx.response(),
          Problems.problem(
                  409,
                  "bundle-not-unpacked",
                  "Bundle not pinned",
                  error == null ? "the tag is not resolved to a digest yet" : error)
              .put("state", state));
      return;
    }
    ctx.response()
        .putHeader("content-type", "application/json")
        .putHeader("cache-control", "no-store")
        .end(new JsonObject().put("image", image).put("digest", digest).encode());
  }
}
