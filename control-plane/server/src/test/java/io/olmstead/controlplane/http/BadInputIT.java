package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Wrong types, missing and unknown fields, huge strings, bad encodings, selectors and content
 * types: a 4xx, no change.
 */
class BadInputIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final int BODY_LIMIT = 200_000;
  private static final String JSON = "application/json";
  private static final String MERGE = "application/merge-patch+json";
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp =
        TestControlPlane.start(
            TestDatabase.create(BadInputIT.class),
            Map.of("OLMSTEAD_MAX_BODY_BYTES", String.valueOf(BODY_LIMIT)));
    api = new ApiClient(cp);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels) VALUES ('target', '{\"env\":\"prod\"}')");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static Arguments bad(
      String name,
      String method,
      String path,
      String contentType,
      Object body,
      int status,
      String code) {
    byte[] bytes =
        body == null
            ? null
            : body instanceof byte[] raw ? raw : body.toString().getBytes(StandardCharsets.UTF_8);
    return Arguments.of(name, method, path, contentType, bytes, status, code);
  }

  private static byte[] invalidUtf8() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("{\"name\":\"ab".getBytes(StandardCharsets.UTF_8));
    out.write(0xC3);
    out.write(0x28);
    out.writeBytes("\",\"role\":\"viewer\"}".getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private static String selector(String text) {
    return "/api/v1/clusters?selector=" + URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  static Stream<Arguments> badRequests() {
    String tokens = "/api/v1/tokens";
    String enroll = "/api/v1/enrollment-tokens";
    String cluster = "/api/v1/clusters/target";
    List<Arguments> cases =
        new ArrayList<>(
            List.of(
                bad(
                    "wrong type",
                    "POST",
                    tokens,
                    JSON,
                    "{\"name\":5,\"role\":\"viewer\"}",
                    422,
                    "validation-failed"),
                bad(
                    "missing field",
                    "POST",
                    tokens,
                    JSON,
                    "{\"role\":\"viewer\"}",
                    422,
                    "validation-failed"),
                bad(
                    "unknown field",
                    "POST",
                    tokens,
                    JSON,
                    "{\"name\":\"a\",\"role\":\"viewer\",\"admin\":true}",
                    422,
                    "validation-failed"),
                bad(
                    "unknown role",
                    "POST",
                    tokens,
                    JSON,
                    "{\"name\":\"a\",\"role\":\"root\"}",
                    422,
                    "validation-failed"),
                bad(
                    "name not DNS-1123",
                    "POST",
                    tokens,
                    JSON,
                    "{\"name\":\"Bad_Name\",\"role\":\"viewer\"}",
                    422,
                    "validation-failed"),
                bad(
                    "name over 63",
                    "POST",
                    tokens,
                    JSON,
                    "{\"name\":\"" + "a".repeat(64) + "\",\"role\":\"viewer\"}",
                    422,
                    "validation-failed"),
                bad(
                    "huge string",
                    "POST",
                    tokens,
                    JSON,
                    "{\"name\":\"" + "a".repeat(100_000) + "\",\"role\":\"viewer\"}",
                    400,
                    "bad-request"),
                bad("invalid UTF-8", "POST", tokens, JSON, invalidUtf8(), 400, "bad-request"),
                bad("malformed JSON", "POST", tokens, JSON, "{\"name\":", 400, "bad-request"),
                bad(
                    "duplicate keys",
                    "POST",
                    tokens,
                    JSON,
                    "{\"name\":\"a\",\"name\":\"b\",\"role\":\"viewer\"}",
                    400,
                    "bad-request"),
                bad(
                    "array instead of object",
                    "POST",
                    tokens,
                    JSON,
                    "[]",
                    422,
                    "validation-failed"),
                bad("empty body", "POST", tokens, JSON, null, 400, "bad-request"),
                bad(
                    "text/plain",
                    "POST",
                    tokens,
                    "text/plain",
                    "{\"name\":\"a\",\"role\":\"viewer\"}",
                    415,
                    "unsupported-media-type"),
                bad(
                    "latin-1 charset",
                    "POST",
                    tokens,
                    "application/json; charset=iso-8859-1",
                    "{\"name\":\"a\",\"role\":\"viewer\"}",
                    415,
                    "unsupported-media-type"),
                bad(
                    "body over the limit",
                    "POST",
                    tokens,
                    JSON,
                    "{\"name\":\"" + "a".repeat(BODY_LIMIT) + "\"}",
                    413,
                    "body-too-large"),
                bad(
                    "upload over the limit",
                    "POST",
                    "/api/v1/catalogs/ops/revisions",
                    "application/x-ndjson",
                    "{}".repeat(BODY_LIMIT),
                    413,
                    "body-too-large"),
                bad(
                    "upload as text/plain",
                    "POST",
                    "/api/v1/catalogs/ops/revisions",
                    "text/plain",
                    "{}",
                    415,
                    "unsupported-media-type"),
                bad(
                    "deep nesting",
                    "POST",
                    enroll,
                    JSON,
                    "{\"ttlSeconds\":60,\"maxUses\":1,\"labels\":"
                        + "{\"a\":".repeat(100)
                        + "1"
                        + "}".repeat(100)
                        + "}",
                    400,
                    "bad-request"),
                bad(
                    "ttl as string",
                    "POST",
                    enroll,
                    JSON,
                    "{\"ttlSeconds\":\"60\",\"maxUses\":1}",
                    422,
                    "validation-failed"),
                bad(
                    "maxUses zero",
                    "POST",
                    enroll,
                    JSON,
                    "{\"ttlSeconds\":60,\"maxUses\":0}",
                    422,
                    "validation-failed"),
                bad(
                    "label value with space",
                    "POST",
                    enroll,
                    JSON,
                    "{\"ttlSeconds\":60,\"maxUses\":1,\"labels\":{\"env\":\"a b\"}}",
                    422,
                    "validation-failed"),
                bad(
                    "label key invalid",
                    "POST",
                    enroll,
                    JSON,
                    "{\"ttlSeconds\":60,\"maxUses\":1,\"labels\":{\"-x\":\"a\"}}",
                    422,
                    "validation-failed"),
                bad(
                    "patch label value number",
                    "PATCH",
                    cluster,
                    MERGE,
                    "{\"labels\":{\"env\":5}}",
                    422,
                    "validation-failed"),
                bad(
                    "patch unknown field",
                    "PATCH",
                    cluster,
                    MERGE,
                    "{\"labels\":{},\"status\":\"connected\"}",
                    422,
                    "validation-failed"),
                bad(
                    "patch labels not an object",
                    "PATCH",
                    cluster,
                    MERGE,
                    "{\"labels\":[\"env\"]}",
                    422,
                    "validation-failed"),
                bad(
                    "patch as plain JSON",
                    "PATCH",
                    cluster,
                    JSON,
                    "{\"labels\":{\"env\":\"dev\"}}",
                    415,
                    "unsupported-media-type"),
                bad(
                    "patch without content type",
                    "PATCH",
                    cluster,
                    null,
                    "{\"labels\":{\"env\":\"dev\"}}",
                    415,
                    "unsupported-media-type"),
                bad(
                    "patch with malformed If-Match",
                    "PATCH",
                    cluster + "",
                    MERGE,
                    "{\"labels\":{\"env\":\"dev\"}}",
                    400,
                    "bad-request"),
                bad(
                    "catalog priority as text",
                    "PUT",
                    "/api/v1/catalogs/ops",
                    JSON,
                    "{\"priority\":\"high\"}",
                    422,
                    "validation-failed"),
                bad(
                    "catalog unknown field",
                    "PUT",
                    "/api/v1/catalogs/ops",
                    JSON,
                    "{\"image\":\"x\"}",
                    422,
                    "validation-failed"),
                bad(
                    "subscription with two version policies",
                    "PUT",
                    "/api/v1/subscriptions/s1",
                    JSON,
                    "{\"catalog\":\"ops\",\"package\":\"p\",\"namespace\":\"ns\",\"placement\":{},\"approval\":\"Automatic\","
                        + "\"version\":{\"pin\":\"1.0.0\",\"range\":\">=1.0.0\"}}",
                    422,
                    "validation-failed"),
                bad(
                    "name in path not DNS-1123",
                    "GET",
                    "/api/v1/clusters/Not_Valid",
                    null,
                    null,
                    400,
                    "bad-request"),
                bad(
                    "name in path too long",
                    "DELETE",
                    "/api/v1/clusters/" + "a".repeat(64),
                    null,
                    null,
                    400,
                    "bad-request"),
                bad(
                    "limit not a number",
                    "GET",
                    "/api/v1/clusters?limit=abc",
                    null,
                    null,
                    400,
                    "bad-request"),
                bad(
                    "limit too large",
                    "GET",
                    "/api/v1/clusters?limit=501",
                    null,
                    null,
                    400,
                    "bad-request"),
                bad(
                    "cursor with bad characters",
                    "GET",
                    "/api/v1/clusters?cursor=!!!",
                    null,
                    null,
                    400,
                    "bad-request"),
                bad(
                    "cursor not issued here",
                    "GET",
                    "/api/v1/audit?cursor=eyJhIjoxfQ",
                    null,
                    null,
                    400,
                    "bad-request"),
                bad(
                    "unknown status",
                    "GET",
                    "/api/v1/clusters?status=sleeping",
                    null,
                    null,
                    400,
                    "bad-request")));
    for (String text :
        List.of(
            "env in (prod",
            "env in ()",
            "=prod",
            "-bad=x",
            "env=prod,,tier",
            "env=a b",
            "env=(x)",
            "size>big",
            "env notin prod",
            "a/b/c=x",
            "env=" + "v".repeat(64))) {
      cases.add(bad("selector " + text, "GET", selector(text), null, null, 400, "bad-request"));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRequests")
  void badInputGetsItsDocumented4xxAndLeavesTheDatabaseUnchanged(
      String name,
      String method,
      String path,
      String contentType,
      byte[] body,
      int status,
      String code) {
    Map<String, String> before = DbSnapshot.of(cp.database());
    Map<String, String> headers = name.contains("If-Match") ? Map.of("If-Match", "7") : Map.of();
    Response response = api.send(method, path, ADMIN, contentType, body, headers);
    assertThat(response.status()).as(name + ": " + response.body()).isEqualTo(status);
    assertThat(response.header("content-type")).isEqualTo("application/problem+json");
    assertThat(response.code()).isEqualTo(code);
    assertThat(response.json().getString("requestId")).isEqualTo(response.header("X-Request-Id"));
    if (status == 422) {
      assertThat(response.json().getJsonArray("errors")).as("per-field errors").isNotEmpty();
    }
    if (name.equals("wrong type") || name.equals("name over 63")) {
      assertThat(
              response.json().getJsonArray("errors").stream()
                  .map(e -> ((JsonObject) e).getString("field")))
          .as(response.body())
          .contains("/name");
    }
    if (name.equals("limit too large")) {
      assertThat(response.json().getJsonArray("errors").getJsonObject(0).getString("field"))
          .isEqualTo("query.limit");
    }
    assertThat(DbSnapshot.of(cp.database())).as("database after " + name).isEqualTo(before);
  }

  @Test
  void aChunkedBodyOverTheLimitIs413AndChangesNothing() throws Exception {
    Map<String, String> before = DbSnapshot.of(cp.database());
    byte[] body =
        ("{\"name\":\"" + "a".repeat(BODY_LIMIT + 10) + "\",\"role\":\"viewer\"}")
            .getBytes(StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/tokens"))
            .header("Authorization", "Bearer " + ADMIN)
            .header("Content-Type", "application/json")
            // An input stream has no known length, so the client sends it chunked: the limit is
            // enforced while reading.
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
            .build();
    HttpResponse<String> response =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
    assertThat(new JsonObject(response.body()).getString("code")).isEqualTo("body-too-large");
    assertThat(DbSnapshot.of(cp.database())).isEqualTo(before);
  }
}
