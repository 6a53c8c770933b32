package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
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
 * The red-team's bad inputs (issue 12: NUL characters, forged cursors, oversized arrays, content
 * types, oversized request lines and headers): each gets its 4xx problem naming the field, and
 * stored data stays as it was.
 */
class HostileInputIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String JSON = "application/json";
  private static final String NUL = "\\u0000";
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TestDatabase.create(HostileInputIT.class), Map.of());
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
      String body,
      int status,
      String code,
      String field) {
    return Arguments.of(name, method, path, contentType, body, status, code, field);
  }

  private static String forged(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  static Stream<Arguments> hostile() {
    String subscription =
        "{\"catalog\":\"ops\",\"package\":\"p\",\"namespace\":\"ns\",\"placement\":{},"
            + "\"approval\":\"Automatic\",\"version\":{\"pin\":\"1.0.0\"}";
    List<Arguments> cases =
        new ArrayList<>(
            List.of(
                bad(
                    "NUL in a token name",
                    "POST",
                    "/api/v1/tokens",
                    JSON,
                    "{\"name\":\"a" + NUL + "\",\"role\":\"viewer\"}",
                    422,
                    "validation-failed",
                    "/name"),
                bad(
                    "NUL in a catalog display name",
                    "PUT",
                    "/api/v1/catalogs/ops",
                    JSON,
                    "{\"displayName\":\"Ops" + NUL + "\"}",
                    422,
                    "validation-failed",
                    "/displayName"),
                bad(
                    "NUL in a label key",
                    "POST",
                    "/api/v1/enrollment-tokens",
                    JSON,
                    "{\"ttlSeconds\":60,\"maxUses\":1,\"labels\":{\"e" + NUL + "\":\"x\"}}",
                    422,
                    "validation-failed",
                    "/labels/e\u0000"),
                bad(
                    "NUL in a merge patch",
                    "PATCH",
                    "/api/v1/clusters/target",
                    "application/merge-patch+json",
                    "{\"labels\":{\"env\":\"a" + NUL + "\"}}",
                    422,
                    "validation-failed",
                    "/labels/env"),
                bad(
                    "NUL in a subscription env value",
                    "PUT",
                    "/api/v1/subscriptions/s1",
                    JSON,
                    subscription
                        + ",\"config\":{\"env\":[{\"name\":\"A\",\"value\":\"x"
                        + NUL
                        + "\"}]}}",
                    422,
                    "validation-failed",
                    "/config/env/0/value"),
                bad(
                    "NUL in a free-form object",
                    "PUT",
                    "/api/v1/subscriptions/s1",
                    JSON,
                    subscription + ",\"config\":{\"affinity\":{\"k\":[\"" + NUL + "\"]}}}",
                    422,
                    "validation-failed",
                    "/config/affinity/k/0"),
                bad(
                    "NUL in enrollment facts",
                    "POST",
                    "/api/v1/agent/enroll",
                    JSON,
                    "{\"clusterName\":\"c1\",\"facts\":{\"agentVersion\":\"1" + NUL + "\"}}",
                    422,
                    "validation-failed",
                    "/facts/agentVersion"),
                bad(
                    "NUL in a path parameter",
                    "GET",
                    "/api/v1/clusters/tar%00get",
                    null,
                    null,
                    422,
                    "validation-failed",
                    "path.name"),
                bad(
                    "NUL in a query parameter",
                    "GET",
                    "/api/v1/clusters?selector=env%3Dprod%00",
                    null,
                    null,
                    422,
                    "validation-failed",
                    "query.selector"),
                bad(
                    "forged cursor [\"zzz\"]",
                    "GET",
                    "/api/v1/clusters?cursor=" + forged("[\"zzz\"]"),
                    null,
                    null,
                    400,
                    "bad-request",
                    "query.cursor"),
                bad(
                    "forged cursor [null]",
                    "GET",
                    "/api/v1/subscriptions?cursor=" + forged("[null]"),
                    null,
                    null,
                    400,
                    "bad-request",
                    "query.cursor"),
                bad(
                    "forged cursor [1e400]",
                    "GET",
                    "/api/v1/audit?cursor=" + forged("[1e400]"),
                    null,
                    null,
                    400,
                    "bad-request",
                    "query.cursor"),
                bad(
                    "forged cursor for tokens",
                    "GET",
                    "/api/v1/tokens?cursor=" + forged("[\"2026-01-01T00:00:00Z\",\"x\"]"),
                    null,
                    null,
                    400,
                    "bad-request",
                    "query.cursor"),
                bad(
                    "placement over maxItems",
                    "PUT",
                    "/api/v1/subscriptions/s1",
                    JSON,
                    subscription.replace(
                            "\"placement\":{}", "\"placement\":{\"clusters\":" + names(257) + "}")
                        + "}",
                    422,
                    "validation-failed",
                    "/placement/clusters"),
                bad(
                    "free-form array over the entry limit",
                    "PUT",
                    "/api/v1/subscriptions/s1",
                    JSON,
                    subscription
                        + ",\"config\":{\"affinity\":{\"k\":"
                        + new JsonArray(new ArrayList<>(java.util.Collections.nCopies(1001, 1)))
                        + "}}}",
                    400,
                    "bad-request",
                    "/config/affinity/k/1000"),
                bad(
                    "enroll as text/plain",
                    "POST",
                    "/api/v1/agent/enroll",
                    "text/plain",
                    "{\"clusterName\":\"c1\",\"facts\":{}}",
                    415,
                    "unsupported-media-type",
                    null),
                bad(
                    "enroll without content type",
                    "POST",
                    "/api/v1/agent/enroll",
                    null,
                    "{\"clusterName\":\"c1\",\"facts\":{}}",
                    415,
                    "unsupported-media-type",
                    null)));
    return cases.stream();
  }

  private static String names(int count) {
    JsonArray names = new JsonArray();
    for (int i = 0; i < count; i++) {
      names.add("c" + i);
    }
    return names.encode();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostile")
  void hostileInputGetsAProblemNamingTheFieldAndChangesNothing(
      String name,
      String method,
      String path,
      String contentType,
      String body,
      int status,
      String code,
      String field) {
    Map<String, String> before = DbSnapshot.of(cp.database());
    String token = path.startsWith("/api/v1/agent/enroll") ? "olm_enroll_not-a-real-token" : ADMIN;
    Response response =
        api.send(
            method,
            path,
            token,
            contentType,
            body == null ? null : body.getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(response.status()).as(name + ": " + response.body()).isEqualTo(status);
    assertThat(response.header("content-type")).isEqualTo("application/problem+json");
    assertThat(response.header("x-content-type-options")).isEqualTo("nosniff");
    assertThat(response.code()).isEqualTo(code);
    assertThat(response.json().getString("requestId")).isNotBlank();
    if (field != null) {
      assertThat(
              response.json().getJsonArray("errors").stream()
                  .map(e -> ((JsonObject) e).getString("field")))
          .as(name + ": " + response.body())
          .contains(field);
    }
    assertThat(DbSnapshot.of(cp.database())).as("database after " + name).isEqualTo(before);
  }

  @Test
  void aCursorTheServerIssuedHidesItsKeyAndStillWorks() {
    for (int i = 0; i < 3; i++) {
      TestDatabase.execute(
          cp.database(),
          "INSERT INTO clusters (name) VALUES ('page-" + i + "') ON CONFLICT DO NOTHING");
    }
    Response first = api.get("/api/v1/clusters?limit=1", ADMIN);
    String cursor = first.json().getString("nextCursor");
    assertThat(cursor).isNotNull();
    String inside = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.ISO_8859_1);
    assertThat(inside)
        .as("the cursor does not show the last name in clear")
        .doesNotContain(first.items().getJsonObject(0).getString("name"));
    Response second = api.get("/api/v1/clusters?limit=1&cursor=" + cursor, ADMIN);
    assertThat(second.status()).isEqualTo(200);
    assertThat(second.items().getJsonObject(0).getString("name"))
        .isGreaterThan(first.items().getJsonObject(0).getString("name"));
  }

  @Test
  void mediaTypesMatchWhateverTheirCase() {
    Response created =
        api.send(
            "POST",
            "/api/v1/tokens",
            ADMIN,
            "Application/Json; Charset=UTF-8",
            "{\"name\":\"case-test\",\"role\":\"viewer\"}".getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    Response enroll =
        api.send(
            "POST",
            "/api/v1/agent/enroll",
            "olm_enroll_not-a-real-token",
            "APPLICATION/JSON",
            "{\"clusterName\":\"c1\",\"facts\":{}}".getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(enroll.status()).as("past the content type check: " + enroll.body()).isEqualTo(401);
  }

  @Test
  void anOversizedRequestLineIs414AndOversizedHeadersAre431BothAsProblems() throws Exception {
    Map<String, String> before = DbSnapshot.of(cp.database());
    String line =
        raw(
            "GET /api/v1/clusters?selector="
                + "a".repeat(InvalidRequests.MAX_INITIAL_LINE_BYTES + 10)
                + " HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(line)
        .matches("(?s)HTTP/1\\.[01] 414 .*")
        .contains("application/problem+json")
        .contains("\"uri-too-long\"");
    String headers =
        raw(
            "GET /api/v1/whoami HTTP/1.1\r\nHost: x\r\nX-Big: "
                + "b".repeat(InvalidRequests.MAX_HEADER_BYTES + 10)
                + "\r\n\r\n");
    assertThat(headers)
        .matches("(?s)HTTP/1\\.[01] 431 .*")
        .contains("application/problem+json")
        .contains("\"headers-too-large\"");
    assertThat(DbSnapshot.of(cp.database())).isEqualTo(before);
  }

  @Test
  void theDashboardIsServedWithAContentSecurityPolicyAndNoFraming() {
    Response ui = api.get("/ui/", null);
    assertThat(ui.status()).isEqualTo(200);
    assertThat(ui.header("content-security-policy"))
        .contains("script-src 'self'")
        .contains("frame-ancestors 'none'")
        .doesNotContain("unsafe-inline");
    assertThat(ui.header("x-frame-options")).isEqualTo("DENY");
    assertThat(ui.header("x-content-type-options")).isEqualTo("nosniff");
    assertThat(api.get("/api/v1/whoami", ADMIN).header("x-content-type-options"))
        .isEqualTo("nosniff");
  }

  @Test
  void theDashboardsModulesAreJavaScriptUnderTheSamePolicy() {
    // a browser runs a module script only when it comes as JavaScript; nosniff makes that check
    // strict
    for (String file : new String[] {"/ui/app.js", "/ui/core.js", "/ui/palette.js"}) {
      Response js = api.get(file, null);
      assertThat(js.status()).as(file).isEqualTo(200);
      assertThat(js.header("content-type")).as(file).startsWith("text/javascript");
      assertThat(js.header("x-content-type-options")).as(file).isEqualTo("nosniff");
      assertThat(js.header("content-security-policy")).as(file).contains("script-src 'self'");
    }
    assertThat(api.get("/ui/palette.css", null).header("content-type")).startsWith("text/css");
  }

  /**
   * Sends bytes the JDK client would refuse to send and returns the whole answer (the server closes
   * after it).
   */
  private static String raw(String request) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", cp.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
