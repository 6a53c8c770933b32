package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.agentgateway.CatalogContentCache.CatalogContent;
import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/v1/agent/catalogs/{digest}}: a catalog revision's stored content for agents.
 * Immutable by digest, so the ETag is the digest and caches may keep it forever. Clients that
 * accept gzip get the bytes compressed once per digest ({@link CatalogContentCache}) over HTTP/1.1;
 * the server's own compression is bypassed so it never redoes that work.
 */
final class CatalogContentHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogContentHandler.class);

  private final CatalogContentCache contents;
  private final CredentialStore credentials;

  CatalogContentHandler(CatalogContentCache contents, CredentialStore credentials) {
    this.contents = contents;
    this.credentials = credentials;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String digest = ctx.pathParam("digest");
    DigestRequest.admit(ctx, credentials)
        .compose(
            admitted -> {
              if (admitted.isEmpty()) {
                return Future.<Void>succeededFuture();
              }
              String etag = admitted.get();
              return contents
                  .get(digest)
                  .map(
                      found -> {
                        if (found.isEmpty()) {
                          Problems.send(
                              ctx.response(),
                              Problems.problem(
                                  404, "not-found", "Not found", "no catalog content " + digest));
                        } else {
                          // Over HTTP/2 (h2c) Vert.x 4 compresses whatever says "Content-Encoding:
                          // gzip" once more, so those
                          // clients get the content uncompressed rather than compressed on the
                          // event loop per request.
                          boolean gzip =
                              acceptsGzip(ctx.request().getHeader("Accept-Encoding"))
                                  && ctx.request().version() != HttpVersion.HTTP_2;
                          send(ctx.response(), found.get(), etag, gzip);
                        }
                        return null;
                      });
            })
        .onFailure(
            e -> {
              LOG.error("catalog content {} not served", digest, e);
              Problems.send(
                  ctx.response(), Problems.problem(500, "internal", "Internal error", null));
            });
  }

  private static void send(
      HttpServerResponse response, CatalogContent content, String etag, boolean gzip) {
    response
        .putHeader("content-type", content.mediaType())
        .putHeader("ETag", etag)
        .putHeader("cache-control", "private, max-age=31536000, immutable")
        .putHeader("Vary", "Accept-Encoding");
    if (gzip && content.gzipped() != null) {
      response.putHeader("Content-Encoding", "gzip").end(content.gzipped());
    } else {
      // "identity" keeps the server's compression off this response (Vert.x drops the header before
      // sending).
      response.putHeader("Content-Encoding", "identity").end(content.content());
    }
  }

  /**
   * Whether an {@code Accept-Encoding} value admits gzip (by name, else by {@code *}; {@code q=0}
   * refuses).
   */
  static boolean acceptsGzip(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    boolean any = false;
    for (String item : acceptEncoding.split(",")) {
      String[] parts = item.split(";");
      String coding = parts[0].trim().toLowerCase(Locale.ROOT);
      if (coding.equals("gzip") || coding.equals("x-gzip")) {
        return !refused(parts);
      }
      any |= coding.equals("*") && !refused(parts);
    }
    return any;
  }

  private static boolean refused(String[] parameters) {
    for (int i = 1; i < parameters.length; i++) {
      String p = parameters[i].trim().toLowerCase(Locale.ROOT).replace(" ", "");
      if (p.startsWith("q=")) {
        try {
          return Double.parseDouble(p.substring(2)) <= 0;
        } catch (NumberFormatException e) {
          return true;
        }
      }
    }
    return false;
  }
}
