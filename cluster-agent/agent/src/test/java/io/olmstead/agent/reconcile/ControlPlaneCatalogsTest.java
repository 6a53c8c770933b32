package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.FbcException;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Catalog content from the control plane is fetched gzip-encoded and parsed in the format it was
 * uploaded in.
 */
class ControlPlaneCatalogsTest {
  private static final String YAML =
      """
      ---
      schema: olm.package
      name: demo
      defaultChannel: stable
      ---
      schema: olm.channel
      package: demo
      name: stable
      entries:
      - name: demo.v1.0.0
      ---
      schema: olm.bundle
      name: demo.v1.0.0
      package: demo
      image: example.com/demo-bundle:v1.0.0
      properties:
      - type: olm.package
        value: {packageName: demo, version: 1.0.0}
      """;

  @Test
  void yamlContentIsParsedAsYamlWhenTheMediaTypeSaysSo() throws Exception {
    Catalog catalog =
        ControlPlaneCatalogs.parse(YAML.getBytes(StandardCharsets.UTF_8), "application/yaml");
    assertThat(catalog.pkg("demo")).isPresent();
    assertThat(catalog.bundleCount()).isEqualTo(1);
  }

  @Test
  void jsonContentStillParsesWithoutAMediaType() throws Exception {
    String json = "{\"schema\":\"olm.package\",\"name\":\"demo\"}\n";
    assertThat(ControlPlaneCatalogs.parse(json.getBytes(StandardCharsets.UTF_8)).pkg("demo"))
        .isPresent();
  }

  @Test
  void yamlServedAsJsonIsRejected() {
    assertThatThrownBy(
            () ->
                ControlPlaneCatalogs.parse(
                    YAML.getBytes(StandardCharsets.UTF_8), "application/json"))
        .isInstanceOf(FbcException.class);
  }

  @Test
  void fetchesWithGzipAcceptedFromAServerThatCompressesLikeTheControlPlane() throws Exception {
    List<String> acceptEncodings = new CopyOnWriteArrayList<>();
    Vertx vertx = Vertx.vertx();
    try {
      // The control plane's HTTP server has compression on: it gzips whatever the client accepts
      // gzip for.
      HttpServer server =
          vertx
              .createHttpServer(new HttpServerOptions().setCompressionSupported(true))
              .requestHandler(
                  req -> {
                    acceptEncodings.add(String.valueOf(req.getHeader("Accept-Encoding")));
                    req.response().putHeader("content-type", "application/yaml").end(YAML);
                  })
              .listen(0, "127.0.0.1")
              .toCompletionStage()
              .toCompletableFuture()
              .get();
      URI base = URI.create("http://127.0.0.1:" + server.actualPort());
      HttpResponse<byte[]> probe =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(base.resolve("/probe"))
                      .header("Accept-Encoding", "gzip")
                      .build(),
                  HttpResponse.BodyHandlers.ofByteArray());
      assertThat(probe.headers().firstValue("Content-Encoding"))
          .as("the server compresses")
          .contains("gzip");

      CredentialStorage credential = CredentialStorage.inMemory();
      credential.save("cluster-credential");
      Optional<Catalog> catalog =
          new ControlPlaneCatalogs(base, credential)
              .catalog("community", "sha256:" + "a".repeat(64));

      assertThat(catalog).hasValueSatisfying(c -> assertThat(c.bundleCount()).isEqualTo(1));
      assertThat(acceptEncodings).hasSize(2).last().isEqualTo("gzip");
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
  }

  @Test
  void aGzipBodyIsDecodedAndAnIdentityBodyPassesThrough() throws Exception {
    byte[] yaml = YAML.getBytes(StandardCharsets.UTF_8);
    assertThat(EncodedBody.read(new ByteArrayInputStream(gzip(yaml)), "gzip", 1 << 20))
        .isEqualTo(yaml);
    assertThat(EncodedBody.read(new ByteArrayInputStream(yaml), "", 1 << 20)).isEqualTo(yaml);
    assertThat(EncodedBody.read(new ByteArrayInputStream(yaml), "identity", 1 << 20))
        .isEqualTo(yaml);
  }

  @Test
  void aGzipBodyInflatingPastTheLimitIsRefused() throws Exception {
    byte[] bomb = gzip(new byte[8 << 20]); // 8 MiB of zeros in a few kilobytes
    assertThat(bomb.length).isLessThan(64 * 1024);
    assertThatThrownBy(() -> EncodedBody.read(new ByteArrayInputStream(bomb), "gzip", 1 << 20))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("exceeds the limit of 1048576 bytes");
  }

  @Test
  void anIdentityBodyPastTheLimitIsRefused() {
    assertThatThrownBy(() -> EncodedBody.read(new ByteArrayInputStream(new byte[2049]), null, 2048))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("exceeds the limit");
  }

  @Test
  void anUnknownContentEncodingIsRefused() {
    assertThatThrownBy(() -> EncodedBody.read(new ByteArrayInputStream(new byte[1]), "br", 2048))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("unsupported Content-Encoding br");
  }

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(content);
    }
    return out.toByteArray();
  }

  @Test
  void aDigestThatFailedIsNotFetchedAgainBeforeItsBackoff() throws Exception {
    java.util.concurrent.atomic.AtomicInteger requests =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean healthy =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicReference<java.time.Instant> now =
        new java.util.concurrent.atomic.AtomicReference<>(
            java.time.Instant.parse("2026-11-22T10:00:00Z"));
    java.time.Clock clock =
        new java.time.Clock() {
          @Override
          public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
          }

          @Override
          public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
          }

          @Override
          public java.time.Instant instant() {
            return now.get();
          }
        };
    Vertx vertx = Vertx.vertx();
    try {
      HttpServer server =
          vertx
              .createHttpServer()
              .requestHandler(
                  req -> {
                    requests.incrementAndGet();
                    if (healthy.get()) {
                      req.response().putHeader("content-type", "application/yaml").end(YAML);
                    } else {
                      req.response().setStatusCode(500).end();
                    }
                  })
              .listen(0, "127.0.0.1")
              .toCompletionStage()
              .toCompletableFuture()
              .get();
      CredentialStorage credential = CredentialStorage.inMemory();
      credential.save("cluster-credential");
      ControlPlaneCatalogs catalogs =
          new ControlPlaneCatalogs(
              URI.create("http://127.0.0.1:" + server.actualPort()), credential, clock);
      String digest = "sha256:" + "b".repeat(64);

      assertThat(catalogs.catalog("community", digest)).isEmpty();
      assertThat(catalogs.catalog("community", digest)).isEmpty();
      assertThat(requests.get()).as("the second ask waits for the backoff").isEqualTo(1);
      now.set(now.get().plus(ControlPlaneCatalogs.FIRST_RETRY));
      assertThat(catalogs.catalog("community", digest)).isEmpty();
      assertThat(requests.get()).isEqualTo(2);
      healthy.set(true);
      now.set(now.get().plus(ControlPlaneCatalogs.FIRST_RETRY)); // the wait doubled: not yet
      assertThat(catalogs.catalog("community", digest)).isEmpty();
      assertThat(requests.get()).isEqualTo(2);
      now.set(now.get().plus(ControlPlaneCatalogs.FIRST_RETRY));
      assertThat(catalogs.catalog("community", digest)).isPresent();
      assertThat(requests.get()).isEqualTo(3);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
  }
}
