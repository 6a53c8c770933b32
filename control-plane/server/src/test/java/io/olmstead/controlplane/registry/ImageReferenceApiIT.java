package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Image references given to the API (a catalog's {@code source.image}, {@code POST /bundles}) are
 * checked before anything is stored: port, tag, digest, and registries on loopback, link-local or
 * metadata addresses not listed.
 */
class ImageReferenceApiIT {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final String DIGEST = "sha256:" + "b".repeat(64);
  static final String LISTED = "127.0.0.1:5999";
  static TestControlPlane cp;

  @BeforeAll
  static void start() {
    cp =
        TestControlPlane.start(
            TestDatabase.create(ImageReferenceApiIT.class),
            Map.of(RegistrySettings.ALLOW_LOCAL, LISTED));
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  static HttpResponse<String> send(String method, String path, JsonObject body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1" + path))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body.encode()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static void assertRefused(HttpResponse<String> r, String field, String says) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    JsonObject error = new JsonObject(r.body()).getJsonArray("errors").getJsonObject(0);
    assertThat(error.getString("field")).isEqualTo(field);
    assertThat(error.getString("message")).contains(says);
  }

  static HttpResponse<String> putSource(String name, String image) throws Exception {
    return send(
        "PUT",
        "/catalogs/" + name,
        new JsonObject()
            .put("source", new JsonObject().put("image", image).put("pollIntervalSeconds", 3600)));
  }

  @Test
  void aCatalogSourceWithABadReferenceIsRefusedAndNotStored() throws Exception {
    assertRefused(
        putSource("bad-port", "registry.example:70000/org/catalog:v1"),
        "/source/image",
        "port 70000");
    assertRefused(
        putSource("zero-port", "registry.example:0/org/catalog:v1"), "/source/image", "port 0");
    assertRefused(
        putSource("long-tag", "quay.io/org/catalog:" + "t".repeat(129)), "/source/image", "128");
    assertRefused(putSource("bad-tag", "quay.io/org/catalog:v1!"), "/source/image", "tag");
    assertRefused(
        putSource("bad-digest", "quay.io/org/catalog@sha256:abc"), "/source/image", "digest");
    for (String name :
        new String[] {"bad-port", "zero-port", "long-tag", "bad-tag", "bad-digest"}) {
      assertThat(send("GET", "/catalogs/" + name, null).statusCode()).as(name).isEqualTo(404);
    }
  }

  @Test
  void aCatalogSourceOnALoopbackOrMetadataAddressIsRefusedUnlessListed() throws Exception {
    assertRefused(
        putSource("probe", "127.0.0.1:22/x/y:z"), "/source/image", RegistrySettings.ALLOW_LOCAL);
    assertRefused(
        putSource("metadata", "169.254.169.254/latest/meta-data:v1"),
        "/source/image",
        "link-local");
    assertRefused(putSource("named", "localhost:8080/x/y:z"), "/source/image", "loopback");
    assertThat(send("GET", "/catalogs/probe", null).statusCode()).isEqualTo(404);
    assertThat(putSource("listed", LISTED + "/x/catalog:v1").statusCode()).isEqualTo(201);
  }

  @Test
  void aBundleRequestWithABadReferenceIsRefusedAndNotStored() throws Exception {
    assertRefused(
        send(
            "POST",
            "/bundles",
            new JsonObject().put("image", "registry.example:65536/org/b@" + DIGEST)),
        "/image",
        "port 65536");
    assertRefused(
        send(
            "POST",
            "/bundles",
            new JsonObject().put("image", "quay.io/org/b@sha256:" + "B".repeat(64))),
        "/image",
        "digest");
    assertRefused(
        send(
            "POST",
            "/bundles",
            new JsonObject().put("image", "169.254.169.254:80/org/b@" + DIGEST)),
        "/image",
        RegistrySettings.ALLOW_LOCAL);
    assertRefused(
        send("POST", "/bundles", new JsonObject().put("image", "quay.io/org/b:v1")),
        "/image",
        "pinned by digest");
    assertThat(send("GET", "/bundles/" + DIGEST, null).statusCode()).isEqualTo(404);
  }
}
