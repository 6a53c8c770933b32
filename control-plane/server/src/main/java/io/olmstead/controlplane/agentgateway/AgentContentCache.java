package io.olmstead.controlplane.agentgateway;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.olmstead.controlplane.agentgateway.CatalogContentCache.CatalogContent;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The catalog and bundle contents served to agents, by digest, in one memory budget ({@code
 * OLMSTEAD_AGENT_CATALOG_CACHE_MB}): a Caffeine cache weighed by bytes, so catalogs and bundles
 * compete for the same room and together never hold more than it. A content larger than the whole
 * budget is not kept.
 */
final class AgentContentCache {
  /**
   * What a digest names here: the same digest could in principle name a catalog and a bundle image.
   */
  private enum Kind {
    CATALOG,
    BUNDLE
  }

  private record Key(Kind kind, String digest) {}

  /** A bundle image's objects, gzipped as stored. */
  private record BundleObjects(Buffer gzipped) implements Weighed {
    @Override
    public long bytes() {
      return gzipped.length();
    }
  }

  /** A value with its size in memory. */
  interface Weighed {
    long bytes();
  }

  private final long maxBytes;
  private final Cache<Key, Weighed> cache;

  AgentContentCache(long maxBytes) {
    this(maxBytes, Runnable::run);
  }

  /**
   * {@code executor}: where Caffeine does its maintenance (evictions); the caller's thread by
   * default.
   */
  AgentContentCache(long maxBytes, Executor executor) {
    this.maxBytes = maxBytes;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((Key key, Weighed value) -> (int) Math.min(Integer.MAX_VALUE, value.bytes()))
            .executor(executor)
            .build();
  }

  Optional<CatalogContent> catalog(String digest) {
    return Optional.ofNullable((CatalogContent) cache.getIfPresent(new Key(Kind.CATALOG, digest)));
  }

  void putCatalog(String digest, CatalogContent content) {
    put(new Key(Kind.CATALOG, digest), content);
  }

  Optional<Buffer> bundle(String digest) {
    return Optional.ofNullable((BundleObjects) cache.getIfPresent(new Key(Kind.BUNDLE, digest)))
        .map(BundleObjects::gzipped);
  }

  void putBundle(String digest, Buffer gzipped) {
    put(new Key(Kind.BUNDLE, digest), new BundleObjects(gzipped));
  }

  private void put(Key key, Weighed value) {
    if (value.bytes() <= maxBytes) {
      cache.put(key, value);
    }
  }

  /** Bytes held now, catalogs and bundles together. */
  long bytes() {
    cache.cleanUp();
    return cache.policy().eviction().orElseThrow().weightedSize().orElse(0L);
  }

  long maxBytes() {
    return maxBytes;
  }
}
