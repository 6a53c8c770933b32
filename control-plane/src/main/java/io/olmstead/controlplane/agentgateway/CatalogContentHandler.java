package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.http.Problems;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/v1/agent/catalogs/{digest}}: a catalog revision's stored content for agents. Immutable by digest,
 * so the ETag is the digest and caches may keep it forever; gzip comes from the server's compression.
 */
final class CatalogContentHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogContentHandler.class);
  private static final Pattern DIGEST = Pattern.compile("^sha256:[a-f0-9]{64}$");
  private static final String CONTENT = "SELECT media_type, content FROM catalog_contents WHERE digest = $1";

  private final Pool pool;
  private final CredentialStore credentials;

  CatalogContentHandler(Pool pool, CredentialStore credentials) {
    this.pool = pool;
    this.credentials = credentials;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String digest = ctx.pathParam("digest");
    Optional<String> credential = BearerToken.of(ctx.request());
    if (credential.isEmpty()) {
      Problems.send(ctx.response(), Problems.problem(401, "unauthorized", "Unauthorized", "a cluster credential is "
          + "required"));
      return;
    }
    credentials.authenticate(credential.get()).compose(cluster -> {
      if (cluster.isEmpty()) {
        Problems.send(ctx.response(), Problems.problem(401, "unauthorized", "Unauthorized",
            "a live cluster credential is required"));
        return io.vertx.core.Future.<Void>succeededFuture();
      }
      if (digest == null || !DIGEST.matcher(digest).matches()) {
        Problems.send(ctx.response(), Problems.problem(400, "bad-request", "Bad request", "not a sha256 digest"));
        return io.vertx.core.Future.<Void>succeededFuture();
      }
      String etag = "\"" + digest + "\"";
      if (etag.equals(ctx.request().getHeader("If-None-Match"))) {
        ctx.response().setStatusCode(304).putHeader("ETag", etag).end();
        return io.vertx.core.Future.<Void>succeededFuture();
      }
      return pool.preparedQuery(CONTENT).execute(Tuple.of(digest)).map(rows -> {
        if (rows.size() == 0) {
          Problems.send(ctx.response(), Problems.problem(404, "not-found", "Not found",
              "no catalog content " + digest));
          return null;
        }
        Row row = rows.iterator().next();
        Buffer content = row.getBuffer("content");
        ctx.response().putHeader("content-type", row.getString("media_type")).putHeader("ETag", etag)
            .putHeader("cache-control", "private, max-age=31536000, immutable").end(content);
        return null;
      });
    }).onFailure(e -> {
      LOG.error("catalog content {} not served", digest, e);
      Problems.send(ctx.response(), Problems.problem(500, "internal", "Internal error", null));
    });
  }
}
