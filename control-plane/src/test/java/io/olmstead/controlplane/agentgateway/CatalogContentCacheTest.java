package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/** The catalog content cache's pure parts: the byte-bounded LRU, gzip, and reading Accept-Encoding. */
class CatalogContentCacheTest {
  @Test
  void theLruKeepsItsTotalUnderTheBoundByEvictingTheLeastRecentlyUsed() {
    SizedLru<String> lru = new SizedLru<>(10, String::length);
    lru.put("a", "aaaa");
    lru.put("b", "bbbb");
    assertThat(lru.get("a")).contains("aaaa"); // a is now the most recently used
    lru.put("c", "cccc");
    assertThat(lru.get("b")).isEmpty();
    assertThat(lru.get("a")).contains("aaaa");
    assertThat(lru.get("c")).contains("cccc");
    assertThat(lru.bytes()).isEqualTo(8);

    lru.put("a", "aaaaaaaa");
    assertThat(lru.get("c")).isEmpty();
    assertThat(lru.bytes()).isEqualTo(8);
    assertThat(lru.size()).isEqualTo(1);
  }

  @Test
  void aValueLargerThanTheBoundIsNotKeptAndEvictsNothing() {
    SizedLru<String> lru = new SizedLru<>(10, String::length);
    lru.put("a", "aaaa");
    lru.put("huge", "x".repeat(11));
    assertThat(lru.get("huge")).isEmpty();
    assertThat(lru.get("a")).contains("aaaa");
    assertThat(lru.bytes()).isEqualTo(4);
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
