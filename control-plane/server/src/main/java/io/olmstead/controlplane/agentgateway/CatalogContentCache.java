package io.olmstead.controlplane.agentgateway;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

/**
 * Catalog contents for agents by digest. A digest names immutable content, so each is read from the
 * database and gzipped (on a worker thread) once, shared by requests that arrive while it loads,
 * and kept in the agent content cache (one budget with bundles): a fleet fetching a new revision
 * costs one read and one compression.
 */
final class CatalogContentCache {
  private static final String CONTENT =
      "SELECT media_type, content FROM catalog_contents WHERE digest = $1";

  private final Vertx vertx;
  private final Pool pool;
  private final GatewayMetrics metrics;
  private final AgentContentCache cache;
  private final Map<String, Future<Optional<CatalogContent>>> loading = new HashMap<>();

  CatalogContentCache(Vertx vertx, Pool pool, GatewayMetrics metrics, AgentContentCache cache) {
    this.vertx = vertx;
    this.pool = pool;
    this.metrics = metrics;
    this.cache = cache;
  }

  /** The content stored under the digest; empty when there is none. */
  Future<Optional<CatalogContent>> get(String digest) {
    Future<Optional<CatalogContent>> load;
    synchronized (this) {
      Optional<CatalogContent> cached = cache.catalog(digest);
      if (cached.isPresent()) {
        metrics.catalogCache("hit");
        return Future.succeededFuture(cached);
      }
      Future<Optional<CatalogContent>> inFlight = loading.get(digest);
      if (inFlight != null) {
        metrics.catalogCache("shared");
        return inFlight;
      }
      metrics.catalogCache("miss");
      load = load(digest);
      loading.put(digest, load);
    }
    return load.andThen(
        ar -> {
          synchronized (this) {
            loading.remove(digest);
            if (ar.succeeded()) {
              ar.result().ifPresent(content -> cache.putCatalog(digest, content));
            }
          }
        });
  }

  private Future<Optional<CatalogContent>> load(String digest) {
    return pool.preparedQuery(CONTENT)
        .execute(Tuple.of(digest))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(Optional.empty());
              }
              Row row = rows.iterator().next();
              String mediaType = row.getString("media_type");
              Buffer content = row.getBuffer("content");
              if (!worthCompressing(content)) {
                return Future.succeededFuture(
                    Optional.of(new CatalogContent(mediaType, content, null)));
              }
              return vertx
                  .executeBlocking(() -> gzip(content.getBytes()), false)
                  .map(
                      gzipped -> {
                        metrics.catalogCompressed();
                        return Optional.of(new CatalogContent(mediaType, content, gzipped));
                      });
            });
  }

  /**
   * Already gzip (a catalog directory uploaded as tar.gz) gains nothing; content whose raw and
   * gzipped copies would not fit the cache together would be compressed again on every request
   * (half the cache leaves room for the gzipped copy, which for catalog JSON or YAML is far smaller
   * than the raw one).
   */
  private boolean worthCompressing(Buffer content) {
    boolean gzipMagic =
        content.length() > 2
            && (content.getByte(0) & 0xff) == 0x1f
            && (content.getByte(1) & 0xff) == 0x8b;
    return !gzipMagic && content.length() <= cache.maxBytes() / 2;
  }

  static Buffer gzip(byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, content.length / 4));
    try (GZIPOutputStream gz = new GZIPOutputStream(out, 64 * 1024)) {
      gz.write(content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Buffer.buffer(out.toByteArray());
  }

  /** One digest's content as stored, and gzipped when that is worth serving (null otherwise). */
  record CatalogContent(String mediaType, Buffer content, Buffer gzipped)
      implements AgentContentCache.Weighed {
    @Override
    public long bytes() {
      return content.length() + (gzipped == null ? 0L : gzipped.length());
    }
  }
}
