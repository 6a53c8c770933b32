package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.agentgateway.CatalogContentCache.CatalogContent;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * The agent content cache's pure parts: one byte budget for catalogs and bundles, gzip, reading
 * Accept-Encoding.
 */
class CatalogContentCacheTest {
  @Test
  void catalogsAndBundlesShareOneBudget() {
    AgentContentCache cache = new AgentContentCache(10);
    cache.putCatalog("sha256:c", catalog("cccccc"));
    cache.putBundle("sha256:b", Buffer.buffer("bbbbbb"));

    assertThat(cache.bytes()).isLessThanOrEqualTo(10);
    assertThat(cache.catalog("sha256:c").isPresent() ^ cache.bundle("sha256:b").isPresent())
        .as("exactly one of two 6-byte contents fits a 10-byte budget")
        .isTrue();
  }

  @Test
  void aCatalogAndABundleUnderOneDigestAreKeptApart() {
    AgentContentCache cache = new AgentContentCache(100);
    cache.putCatalog("sha256:same", catalog("catalog"));
    cache.putBundle("sha256:same", Buffer.buffer("bundle"));

    assertThat(cache.catalog("sha256:same")).map(c -> c.content().toString()).contains("catalog");
    assertThat(cache.bundle("sha256:same")).map(Buffer::toString).contains("bundle");
    assertThat(cache.bytes()).isEqualTo(13);
  }

  @Test
  void aValueLargerThanTheBudgetIsNotKeptAndEvictsNothing() {
    AgentContentCache cache = new AgentContentCache(10);
    cache.putCatalog("sha256:a", catalog("aaaa"));
    cache.putBundle("sha256:huge", Buffer.buffer("x".repeat(11)));

    assertThat(cache.bundle("sha256:huge")).isEmpty();
    assertThat(cache.catalog("sha256:a")).isPresent();
    assertThat(cache.bytes()).isEqualTo(4);
  }

  @Test
  void aGzippedCopyCountsAgainstTheBudget() {
    AgentContentCache cache = new AgentContentCache(100);
    cache.putCatalog(
        "sha256:z",
        new CatalogContent(
            "application/json", Buffer.buffer("0123456789"), Buffer.buffer("01234")));

    assertThat(cache.bytes()).isEqualTo(15);
  }

  private static CatalogContent catalog(String content) {
    return new CatalogContent("application/json", Buffer.buffer(content), null);
  }

  @Test
  void gzipRoundTrips() throws IOException {
    byte[] content = "{\"schema\":\"olm.package\"}\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
    byte[] gzipped = CatalogContentCache.gzip(content).getBytes();
    assertThat(gzipped.length).isLessThan(content.length / 10);
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
      assertThat(in.readAllBytes()).isEqualTo(content);
    }
  }

  @Test
  void gzipIsServedOnlyWhenTheClientAcceptsIt() {
    assertThat(CatalogContentHandler.acceptsGzip("gzip")).isTrue();
    assertThat(CatalogContentHandler.acceptsGzip("deflate, GZIP;q=0.5")).isTrue();
    assertThat(CatalogContentHandler.acceptsGzip("br, *")).isTrue();
    assertThat(CatalogContentHandler.acceptsGzip(null)).isFalse();
    assertThat(CatalogContentHandler.acceptsGzip("identity")).isFalse();
    assertThat(CatalogContentHandler.acceptsGzip("gzip;q=0, *")).isFalse();
    assertThat(CatalogContentHandler.acceptsGzip("*;q=0")).isFalse();
    assertThat(CatalogContentHandler.acceptsGzip("gzip;q=nonsense")).isFalse();
  }
}
