package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.registry.BundleImages;
import io.olmstead.controlplane.registry.TestRegistry;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /agent/bundles/{digest}}: unpacked objects for enrolled agents, gzip, ETag, 409 until
 * unpacked.
 */
class BundleContentIT {
  static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static TestRegistry registry;
  static TestControlPlane cp;
  static String credential;

  @BeforeAll
  static void start() throws Exception {
    BundleImages.bundledCatalog();
    registry = TestRegistry.start();
    cp =
        TestControlPlane.start(
            TestDatabase.create(BundleContentIT.class),
            Map.of(RegistrySettings.INSECURE, registry.host()));
    credential =
        Enroll.credential(
            cp.baseUrl(),
            new ChannelFixtures(cp.database()).enrollmentToken(1, 600, "{}", null),
            "bundle-fetcher");
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
    if (registry != null) {
      registry.close();
    }
  }

  static HttpResponse<byte[]> fetch(String digest, String token, String etag) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/agent/bundles/" + digest))
            .header("Accept-Encoding", "gzip");
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (etag != null) {
      b.header("If-None-Match", etag);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void servesTheUnpackedObjectsGzippedAndImmutable() throws Exception {
    Bundle etcd = BundleImages.bundle(BundleImages.bundledCatalog(), "etcdoperator.v0.9.4");
    String image = BundleImages.push(registry, etcd);
    String digest = image.substring(image.indexOf('@') + 1);
    assertThat(fetch(digest, credential, null).statusCode()).isEqualTo(404);
    HttpResponse<String> post =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/bundles"))
                .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        new JsonObject().put("image", image).encode()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(202);
    HttpResponse<byte[]> ok =
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> fetch(digest, credential, null), r -> r.statusCode() != 409);
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.headers().firstValue("Content-Encoding")).contains("gzip");
    assertThat(ok.headers().firstValue("ETag")).contains("\"" + digest + "\"");
    assertThat(ok.headers().firstValue("cache-control").orElse("")).contains("immutable");
    JsonArray objects =
        new JsonObject(
                new String(new GZIPInputStream(new ByteArrayInputStream(ok.body())).readAllBytes()))
            .getJsonArray("objects");
    List<BundleObject> expected = etcd.objects();
    assertThat(objects).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      BundleObject served =
          new BundleObject(etcd.name(), objects.getJsonObject(i).getString("data"));
      assertThat(served.manifest()).isEqualTo(expected.get(i).manifest());
    }
    assertThat(fetch(digest, credential, "\"" + digest + "\"").statusCode()).isEqualTo(304);
  }

  @Test
  void onlyEnrolledAgentsGetBundles() throws Exception {
    assertThat(fetch("sha256:" + "c".repeat(64), null, null).statusCode()).isEqualTo(401);
    assertThat(fetch("sha256:" + "c".repeat(64), "not-a-credential", null).statusCode())
        .isEqualTo(401);
    assertThat(fetch("sha256:nothex", credential, null).statusCode()).isEqualTo(400);
  }
}
