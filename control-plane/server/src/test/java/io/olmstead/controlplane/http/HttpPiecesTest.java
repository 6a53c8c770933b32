package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HttpPiecesTest {

  private static int status(Runnable action) {
    try {
      action.run();
      return 0;
    } catch (ApiException e) {
      return e.status();
    }
  }

  @Test
  void anyIfMatchOnAMissingResourceIs412EvenStar() {
    assertThat(status(() -> ETags.checkMissing(Optional.of("*"), "catalog x"))).isEqualTo(412);
    assertThat(status(() -> ETags.checkMissing(Optional.of("\"1\""), "catalog x"))).isEqualTo(412);
    ETags.checkMissing(Optional.empty(), "catalog x");
  }

  @Test
  void ifMatchAcceptsTheCurrentTagOrStarAndRefusesOthersWith412() {
    assertThat(status(() -> ETags.check(Optional.empty(), 3))).isZero();
    assertThat(status(() -> ETags.check(Optional.of("\"3\""), 3))).isZero();
    assertThat(status(() -> ETags.check(Optional.of("\"1\", \"3\""), 3))).isZero();
    assertThat(status(() -> ETags.check(Optional.of("*"), 3))).isZero();
    assertThat(status(() -> ETags.check(Optional.of("\"2\""), 3))).isEqualTo(412);
    assertThat(status(() -> ETags.check(Optional.of("W/\"3\""), 3)))
        .as("weak tags never match")
        .isEqualTo(412);
    assertThat(status(() -> ETags.check(Optional.of("3"), 3))).isEqualTo(400);
    assertThat(ETags.of(7)).isEqualTo("\"7\"");
  }

  /**
   * Cursors use the key installed for the current Vert.x instance: run the checks on one of its
   * contexts.
   */
  private static void withCursorKey(byte[] secret, Runnable checks) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Cursors.install(vertx, secret);
      CompletableFuture<Void> done = new CompletableFuture<>();
      vertx.runOnContext(
          v -> {
            try {
              checks.run();
              done.complete(null);
            } catch (Throwable e) {
              done.completeExceptionally(e);
            }
          });
      done.get(10, TimeUnit.SECONDS);
    } finally {
      vertx.close();
    }
  }

  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);

  @Test
  void cursorsRoundTripAndRejectAnythingElse() throws Exception {
    withCursorKey(
        SECRET,
        () -> {
          JsonArray key = new JsonArray().add("name").add(42);
          assertThat(Cursors.decode(Cursors.encode(key), 2)).isEqualTo(key);
          assertThat(Cursors.encode(key)).matches("[A-Za-z0-9_-]+");
          assertThatThrownBy(() -> Cursors.decode(Cursors.encode(key), 1))
              .isInstanceOf(ApiException.class);
          assertThatThrownBy(() -> Cursors.decode("bm90IGpzb24", 1))
              .isInstanceOf(ApiException.class);
          assertThatThrownBy(() -> Cursors.decode("%%%", 1)).isInstanceOf(ApiException.class);
          String byName = Cursors.encode(new JsonArray().add("etcd"));
          assertThatThrownBy(() -> Cursors.decode(byName, 1).getInteger(0))
              .as("a name where a number is expected")
              .isInstanceOf(ApiException.class);
          assertThat(Cursors.decode(Cursors.encode(new JsonArray().add(7)), 1).getInteger(0))
              .isEqualTo(7);
        });
  }

  @Test
  void cursorsAreOpaqueAndOnlyTheKeyThatSealedThemOpensThem() throws Exception {
    String[] sealed = new String[1];
    withCursorKey(
        SECRET,
        () -> {
          sealed[0] = Cursors.encode(new JsonArray().add("team-beta-secret-id"));
          String decoded =
              new String(Base64.getUrlDecoder().decode(sealed[0]), StandardCharsets.ISO_8859_1);
          assertThat(decoded)
              .as("the key is not readable in the cursor")
              .doesNotContain("team-beta");
          // forged: the plain base64url JSON cursors this server used to accept, and a sealed one
          // with a flipped bit
          for (String forged : List.of("WyJ6enoiXQ", "W251bGxd", "WzFlNDAwXQ", flip(sealed[0]))) {
            assertThatThrownBy(() -> Cursors.decode(forged, 1))
                .as(forged)
                .isInstanceOf(ApiException.class);
          }
        });
    withCursorKey(
        "another-secret-of-32-bytes-or-more".getBytes(StandardCharsets.UTF_8),
        () ->
            assertThatThrownBy(() -> Cursors.decode(sealed[0], 1))
                .isInstanceOf(ApiException.class));
  }

  private static String flip(String cursor) {
    byte[] raw = Base64.getUrlDecoder().decode(cursor);
    raw[20] ^= 1;
    return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
  }

  @Test
  void pagesUseTheExtraRowOnlyToTellThatMoreFollow() throws Exception {
    withCursorKey(
        SECRET,
        () -> {
          JsonObject page =
              Cursors.page(
                  List.of("a", "b", "c"),
                  2,
                  s -> new JsonObject().put("n", s),
                  s -> new JsonArray().add(s));
          assertThat(page.getJsonArray("items")).hasSize(2);
          assertThat(Cursors.decode(page.getString("nextCursor"), 1).getString(0)).isEqualTo("b");
          JsonObject last =
              Cursors.page(List.of("a"), 2, s -> new JsonObject(), s -> new JsonArray().add(s));
          assertThat(last.getString("nextCursor")).isNull();
          assertThat(last.containsKey("nextCursor")).isTrue();
        });
  }

  @Test
  void jsonGuardRejectsBrokenEncodingsDuplicatesDepthAndHugeStrings() {
    assertThatCode(() -> JsonBodyGuard.check(Buffer.buffer("{\"a\":[1,{\"b\":\"ü\"}]}")))
        .doesNotThrowAnyException();
    assertThat(
            status(
                () -> JsonBodyGuard.check(Buffer.buffer(new byte[] {'"', (byte) 0xC3, 0x28, '"'}))))
        .isEqualTo(400);
    assertThat(status(() -> JsonBodyGuard.check(Buffer.buffer("{\"a\":1,\"a\":2}"))))
        .isEqualTo(400);
    assertThat(status(() -> JsonBodyGuard.check(Buffer.buffer("[".repeat(100) + "]".repeat(100)))))
        .isEqualTo(400);
    assertThat(status(() -> JsonBodyGuard.check(Buffer.buffer("\"" + "x".repeat(70_000) + "\""))))
        .isEqualTo(400);
    assertThat(status(() -> JsonBodyGuard.check(Buffer.buffer("{\"a\":")))).isEqualTo(400);
  }

  @Test
  void jsonGuardRefusesNulInAnyKeyOrStringNamingItAndOversizedContainers() {
    ApiException value =
        catchApi(
            () -> JsonBodyGuard.check(Buffer.buffer("{\"a\":{\"b\":[\"ok\",\"x\\u0000y\"]}}")));
    assertThat(value.status()).isEqualTo(422);
    assertThat(value.toProblem().getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/a/b/1");
    ApiException key =
        catchApi(() -> JsonBodyGuard.check(Buffer.buffer("{\"labels\":{\"k\\u0000\":\"v\"}}")));
    assertThat(key.status()).isEqualTo(422);
    assertThat(key.toProblem().getJsonArray("errors").getJsonObject(0).getString("field"))
        .startsWith("/labels/k");
    String many = "[" + "1,".repeat(JsonBodyGuard.MAX_ENTRIES) + "1]";
    assertThat(status(() -> JsonBodyGuard.check(Buffer.buffer("{\"a\":" + many + "}"))))
        .isEqualTo(400);
    String exactly = "[" + "1,".repeat(JsonBodyGuard.MAX_ENTRIES - 1) + "1]";
    assertThatCode(() -> JsonBodyGuard.check(Buffer.buffer("{\"a\":" + exactly + "}")))
        .doesNotThrowAnyException();
  }

  private static ApiException catchApi(Runnable action) {
    try {
      action.run();
    } catch (ApiException e) {
      return e;
    }
    throw new AssertionError("no ApiException");
  }

  @Test
  void contentTypesMatchIgnoringCaseAndOnlyWithUtf8Charsets() {
    OperationPolicy policy =
        new OperationPolicy(
            "x",
            "POST",
            "/api/v1/x",
            Optional.empty(),
            "apiToken",
            Set.of("application/json"),
            true,
            false,
            false);
    assertThat(ApiGate.accepts(policy, "application/json")).isTrue();
    assertThat(ApiGate.accepts(policy, "Application/JSON; charset=UTF-8")).isTrue();
    assertThat(ApiGate.accepts(policy, "application/json; charset=\"utf-8\"")).isTrue();
    assertThat(ApiGate.accepts(policy, "application/json; charset=latin1")).isFalse();
    assertThat(ApiGate.accepts(policy, "text/json")).isFalse();
    assertThat(ApiGate.accepts(policy, "application/json-seq")).isFalse();
  }

  @Test
  void problemsCarryAStableCodeAndFieldErrors() {
    JsonObject problem =
        ApiException.validationFailed(
                "bad",
                new JsonArray()
                    .add(new JsonObject().put("field", "/name").put("message", "too long")))
            .toProblem();
    assertThat(problem.getInteger("status")).isEqualTo(422);
    assertThat(problem.getString("code")).isEqualTo("validation-failed");
    assertThat(problem.getString("type")).endsWith("/validation-failed");
    assertThat(problem.getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo("/name");
    assertThat(ApiException.notFound("x").toProblem().containsKey("errors")).isFalse();
  }
}
