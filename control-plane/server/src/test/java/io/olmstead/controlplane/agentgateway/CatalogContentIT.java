package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.catalog.CatalogDigest;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /agent/catalogs/{digest}} serves each digest's content from memory after one database
 * read and one compression, however many agents ask at once; ETag/304 and identity clients work as
 * before.
 */
class CatalogContentIT {
  private static final String REQUESTS = "olmstead_agent_catalog_cache_requests_total";
  private static final String MISSES = REQUESTS + "{result=\"miss\"}";
  private static final String COMPRESSIONS = "olmstead_agent_catalog_compressions_total";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static String credential;

  @BeforeAll
  static void start() throws Exception {
    cp = TestControlPlane.start(TestDatabase.create(CatalogContentIT.class), Map.of());
    fixtures = new ChannelFixtures(cp.database());
    credential =
        Enroll.credential(cp.baseUrl(), fixtures.enrollmentToken(1, 600, "{}", null), "fetcher");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void theSecondGzipFetchIsServedFromMemoryWithTheSameBytes() throws Exception {
    byte[] content = ndjson("first");
    String digest = store(content);
    Scrape before = Scrape.of(cp.baseUrl());
    HttpResponse<byte[]> first = fetch(digest, "gzip", null);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.headers().firstValue("Content-Encoding")).contains("gzip");
    assertThat(first.headers().firstValue("ETag")).contains("\"" + digest + "\"");
    assertThat(first.headers().firstValue("X-Request-Id"))
        .as("agent routes carry a request id like the API")
        .hasValueSatisfying(id -> assertThat(id).isNotBlank());
    assertThat(gunzip(first.body())).isEqualTo(content);

    // Gone from the database: only memory can answer now.
    fixtures.update("DELETE FROM catalog_contents WHERE digest = ?", digest);
    HttpResponse<byte[]> second = fetch(digest, "gzip", null);
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.body()).isEqualTo(first.body());
    HttpResponse<byte[]> identity = fetch(digest, null, null);
    assertThat(identity.statusCode()).isEqualTo(200);
    assertThat(identity.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(identity.body()).isEqualTo(content);
    assertThat(fetch(digest, "gzip", "\"" + digest + "\"").statusCode()).isEqualTo(304);

    assertThat(
            Scrape.of(cp.baseUrl())
                .since(before, MISSES, REQUESTS + "{result=\"hit\"}", COMPRESSIONS))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(MISSES, 1.0, REQUESTS + "{result=\"hit\"}", 2.0, COMPRESSIONS, 1.0));
    assertThat(Scrape.of(cp.baseUrl()).value("olmstead_agent_catalog_cache_bytes"))
        .isGreaterThanOrEqualTo(content.length + second.body().length);
  }

  @Test
  void manyAgentsFetchingANewRevisionAtOnceCauseOneReadAndOneCompression() throws Exception {
    byte[] content = ndjson("fleet");
    String digest = store(content);
    Scrape before = Scrape.of(cp.baseUrl());
    List<CompletableFuture<HttpResponse<byte[]>>> fetches =
        IntStream.range(0, 30)
            .mapToObj(
                i ->
                    HTTP.sendAsync(
                        request(digest, "gzip", null), HttpResponse.BodyHandlers.ofByteArray()))
            .toList();
    List<HttpResponse<byte[]>> responses = fetches.stream().map(CompletableFuture::join).toList();
    assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
    assertThat(responses.stream().map(r -> java.nio.ByteBuffer.wrap(r.body())).distinct())
        .hasSize(1);
    assertThat(gunzip(responses.get(0).body())).isEqualTo(content);

    Map<String, Double> change =
        Scrape.of(cp.baseUrl())
            .since(
                before,
                MISSES,
                REQUESTS + "{result=\"hit\"}",
                REQUESTS + "{result=\"shared\"}",
                COMPRESSIONS);
    assertThat(change.get(MISSES)).isEqualTo(1.0);
    assertThat(change.get(COMPRESSIONS)).isEqualTo(1.0);
    assertThat(
            change.get(REQUESTS + "{result=\"hit\"}")
                + change.get(REQUESTS + "{result=\"shared\"}"))
        .isEqualTo(29.0);
  }

  @Test
  void alreadyGzippedContentIsServedAsStoredAndNotCompressedAgain() throws Exception {
    byte[] tarGz = CatalogContentCache.gzip(ndjson("tar")).getBytes();
    String digest = store(tarGz);
    Scrape before = Scrape.of(cp.baseUrl());
    HttpResponse<byte[]> response = fetch(digest, "gzip", null);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(response.body()).isEqualTo(tarGz);
    assertThat(Scrape.of(cp.baseUrl()).since(before, COMPRESSIONS))
        .containsEntry(COMPRESSIONS, 0.0);
  }

  @Test
  void anHttp2ClientAcceptingGzipGetsTheContentOnceDecodableNotGzippedTwice() throws Exception {
    byte[] content = ndjson("h2c");
    String digest = store(content);
    HttpResponse<byte[]> response =
        HttpClient.newHttpClient()
            .send(request(digest, "gzip", null), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.version()).as("upgraded to h2c").isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Encoding").orElse("identity"))
        .isEqualTo("identity");
    assertThat(response.body()).isEqualTo(content);
  }

  @Test
  void anUnknownDigestIs404AndNotRemembered() throws Exception {
    byte[] content = ndjson("late");
    String digest = CatalogDigest.of(content);
    assertThat(fetch(digest, "gzip", null).statusCode()).isEqualTo(404);
    store(content);
    assertThat(fetch(digest, "gzip", null).statusCode()).isEqualTo(200);
  }

  /** About 200 KB of compressible NDJSON, different per seed. */
  private static byte[] ndjson(String seed) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      text.append("{\"schema\":\"olm.bundle\",\"package\":\"")
          .append(seed)
          .append("\",\"name\":\"")
          .append(seed)
          .append(".v")
          .append(i)
          .append(".0.0\",\"image\":\"quay.io/example/")
          .append(seed)
          .append(":")
          .append(i)
          .append("\"}\n");
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String store(byte[] content) {
    String digest = CatalogDigest.of(content);
    fixtures.update(
        "INSERT INTO catalog_contents (digest, media_type, size_bytes, content) VALUES "
            + "(?, 'application/x-ndjson', ?, ?)",
        digest,
        content.length,
        content);
    return digest;
  }

  private static HttpRequest request(String digest, String acceptEncoding, String ifNoneMatch) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/agent/catalogs/" + digest))
            .header("Authorization", "Bearer " + credential);
    if (acceptEncoding != null) {
      request.header("Accept-Encoding", acceptEncoding);
    }
    if (ifNoneMatch != null) {
      request.header("If-None-Match", ifNoneMatch);
    }
    return request.build();
  }

  private static HttpResponse<byte[]> fetch(
      String digest, String acceptEncoding, String ifNoneMatch) throws Exception {
    return HTTP.send(
        request(digest, acceptEncoding, ifNoneMatch), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static byte[] gunzip(byte[] gzipped) throws Exception {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
      return in.readAllBytes();
    }
  }
}
