package io.olmstead.controlplane.enrollment;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EnrollmentTokensIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(EnrollmentTokensIT.class);
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static Response create(JsonObject body) {
    return api.json("POST", "/api/v1/enrollment-tokens", ADMIN, body);
  }

  @Test
  void createReturnsTheSecretOnceWithExpiryAndLabels() {
    Response created =
        create(
            new JsonObject()
                .put("ttlSeconds", 3600)
                .put("maxUses", 5)
                .put("labels", new JsonObject().put("env", "prod"))
                .put("clusterName", "prod-eu-1"));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    JsonObject token = created.json();
    assertThat(token.getString("token")).startsWith("olm_enroll_");
    assertThat(token.getInteger("maxUses")).isEqualTo(5);
    assertThat(token.getInteger("uses")).isZero();
    assertThat(token.getString("clusterName")).isEqualTo("prod-eu-1");
    assertThat(token.getJsonObject("labels").getString("env")).isEqualTo("prod");
    Duration ttl =
        Duration.between(OffsetDateTime.now(), OffsetDateTime.parse(token.getString("expiresAt")));
    assertThat(ttl).isBetween(Duration.ofMinutes(55), Duration.ofMinutes(61));
    Response fetched = api.get("/api/v1/enrollment-tokens/" + token.getString("id"), ADMIN);
    assertThat(fetched.status()).isEqualTo(200);
    assertThat(fetched.json().containsKey("token")).isFalse();
  }

  @Test
  void listsNewestFirstWithoutSecrets() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(
          create(new JsonObject().put("ttlSeconds", 60).put("maxUses", 1)).json().getString("id"));
    }
    List<String> listed = new ArrayList<>();
    String cursor = null;
    do {
      Response page =
          api.get(
              "/api/v1/enrollment-tokens?limit=2" + (cursor == null ? "" : "&cursor=" + cursor),
              ADMIN);
      assertThat(page.body()).doesNotContain("olm_enroll_");
      page.items().forEach(item -> listed.add(((JsonObject) item).getString("id")));
      cursor = page.json().getString("nextCursor");
    } while (cursor != null);
    assertThat(listed).doesNotHaveDuplicates();
    assertThat(listed.indexOf(ids.get(2))).isLessThan(listed.indexOf(ids.get(0)));
  }

  @Test
  void revokedTokensCannotBeConsumedAndRevokingTwiceIs404() throws Exception {
    Response created = create(new JsonObject().put("ttlSeconds", 600).put("maxUses", 2));
    String id = created.json().getString("id");
    byte[] hash = Tokens.hash(created.json().getString("token"));
    assertThat(api.delete("/api/v1/enrollment-tokens/" + id, ADMIN).status()).isEqualTo(204);
    assertThat(api.get("/api/v1/enrollment-tokens/" + id, ADMIN).json().getString("revokedAt"))
        .isNotNull();
    assertThat(consume(hash)).isEmpty();
    assertThat(api.delete("/api/v1/enrollment-tokens/" + id, ADMIN).status()).isEqualTo(404);
  }

  @Test
  void consumeTakesOneUseAtATimeUntilUsedUp() throws Exception {
    Response created = create(new JsonObject().put("ttlSeconds", 600).put("maxUses", 2));
    byte[] hash = Tokens.hash(created.json().getString("token"));
    assertThat(consume(hash)).map(EnrollmentTokenStore.EnrollmentToken::uses).contains(1);
    assertThat(consume(hash)).map(EnrollmentTokenStore.EnrollmentToken::uses).contains(2);
    assertThat(consume(hash)).isEmpty();
    assertThat(consume(Tokens.hash("olm_enroll_unknown"))).isEmpty();
  }

  @Test
  void unknownIdIs404AndAMalformedIdIs400() {
    assertThat(
            api.get("/api/v1/enrollment-tokens/2b1f9a64-1111-4222-8333-944455556666", ADMIN)
                .status())
        .isEqualTo(404);
    assertThat(api.get("/api/v1/enrollment-tokens/not-a-uuid", ADMIN).status()).isEqualTo(400);
  }

  @Test
  void aTeamScopedAdminMustLabelTokensWithItsTeam() {
    String teamAdmin = api.createToken(ADMIN, "enroll-team-admin", "admin", List.of("team-a"));
    Response unlabelled =
        api.json(
            "POST",
            "/api/v1/enrollment-tokens",
            teamAdmin,
            new JsonObject().put("ttlSeconds", 60).put("maxUses", 1));
    assertThat(unlabelled.status()).isEqualTo(403);
    Response labelled =
        api.json(
            "POST",
            "/api/v1/enrollment-tokens",
            teamAdmin,
            new JsonObject()
                .put("ttlSeconds", 60)
                .put("maxUses", 1)
                .put("labels", new JsonObject().put("olmstead.io/team", "team-a")));
    assertThat(labelled.status()).isEqualTo(201);
    Response listed = api.get("/api/v1/enrollment-tokens?limit=500", teamAdmin);
    assertThat(listed.items())
        .allSatisfy(
            item ->
                assertThat(
                        ((JsonObject) item).getJsonObject("labels").getString("olmstead.io/team"))
                    .isEqualTo("team-a"));
  }

  private static Optional<EnrollmentTokenStore.EnrollmentToken> consume(byte[] hash)
      throws Exception {
    return cp.controlPlane()
        .pool()
        .withTransaction(conn -> new EnrollmentTokenStore().consume(conn, hash))
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }
}
