package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/**
 * {@code GET /api/v1/agent/bundles/{digest}}: an unpacked bundle image's objects for agents, so
 * clusters never talk to registries. Stored gzipped and immutable by digest (ETag = digest); the
 * gzipped bytes are kept in the agent content cache (one budget with catalogs) so a fleet
 * installing one bundle costs one database read. Not unpacked yet (or failed): 409 naming the
 * state.
 */
final class BundleContentHandler implements Handler<RoutingContext> {
  private static final String SELECT =
      "SELECT state, message, objects_gz FROM bundle_images WHERE digest = $1";
  // a bundle of a current catalog revision nobody asked for yet (a dependency): record it; the
  // unpack sweep pulls it
  // (image_digest: named by digest, or a tag pinned for the revision)
  private static final String REQUEST =
      "INSERT INTO bundle_images (digest, image) SELECT $1, "
          + "pinned_image(b.image, $1) "
          + "FROM catalog_bundles b JOIN catalogs c ON c.name = b.catalog AND c.current_revision = b.revision "
          + "WHERE b.image_digest = $1 LIMIT 1 ON CONFLICT (digest) DO NOTHING";

  private final Vertx vertx;
  private final Pool pool;
  private final CredentialStore credentials;
  private final AgentContentCache cache;

  BundleContentHandler(
      Vertx vertx, Pool pool, CredentialStore credentials, AgentContentCache cache) {
    this.vertx = vertx;
    this.pool = pool;
    this.credentials = credentials;
    this.cache = cache;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String digest = ctx.pathParam("digest");
    DigestRequest.admit(ctx, credentials)
        .<Void>compose(
            admitted -> {
              if (admitted.isEmpty()) {
                return Future.<Void>succeededFuture();
              }
              String etag = admitted.get();
              Buffer cached = cache.bundle(digest).orElse(null);
              if (cached != null) {
                return send(ctx, cached, etag);
              }
              return pool.preparedQuery(SELECT)
                  .execute(Tuple.of(digest))
                  .<Void>compose(
                      rows -> {
                        if (rows.size() == 0) {
                          return pool.preparedQuery(REQUEST)
                              .execute(Tuple.of(digest))
                              .<Void>map(
                                  recorded -> {
                                    Problems.send(
                                        ctx.response(),
                                        recorded.rowCount() == 0
                                            ? Problems.problem(
                                                404,
                                                "not-found",
                                                "Not found",
                                                "no catalog names bundle image " + digest)
                                            : Problems.problem(
                                                    409,
                                                    "bundle-not-unpacked",
                                                    "Bundle not unpacked",
                                                    "Pending")
                                                .put("state", "Pending"));
                                    return null;
                                  });
                        }
                        Row row = rows.iterator().next();
                        if (!"Unpacked".equals(row.getString("state"))) {
                          String message = row.getString("message");
                          Problems.send(
                              ctx.response(),
                              Problems.problem(
                                      409,
                                      "bundle-not-unpacked",
                                      "Bundle not unpacked",
                                      message == null ? row.getString("state") : message)
                                  .put("state", row.getString("state")));
                          return Future.<Void>succeededFuture();
                        }
                        Buffer gz = row.getBuffer("objects_gz");
                        cache.putBundle(digest, gz);
                        return send(ctx, gz, etag);
                      });
            })
        .onFailure(
            e ->
                Problems.send(
                    ctx.response(), Problems.problem(500, "internal", "Internal error", null)));
  }

  private Future<Void> send(RoutingContext ctx, Buffer gz, String etag) {
    HttpServerResponse response =
        ctx.response()
            .putHeader("content-type", "application/json")
            .putHeader("ETag", etag)
            .putHeader("cache-control", "private, max-age=31536000, immutable")
            .putHeader("Vary", "Accept-Encoding");
    if (CatalogContentHandler.acceptsGzip(ctx.request().getHeader("Accept-Encoding"))
        && ctx.request().version() != HttpVersion.HTTP_2) {
      return response.putHeader("Content-Encoding", "gzip").end(gz);
    }
    return vertx
        .executeBlocking(() -> gunzip(gz), false)
        .compose(plain -> response.putHeader("Content-Encoding", "identity").end(plain));
  }

  private static Buffer gunzip(Buffer gz) {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.getBytes()))) {
      return Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
