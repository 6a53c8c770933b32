package io.olmstead.controlplane.enrollment;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
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
  void aRevokedTokenEnrollsNothingAndRevokingTwiceIs404() {
    Response created = create(new JsonObject().put("ttlSeconds", 600).put("maxUses", 2));
    String id = created.json().getString("id");
    assertThat(api.delete("/api/v1/enrollment-tokens/" + id, ADMIN).status()).isEqualTo(204);
    assertThat(api.get("/api/v1/enrollment-tokens/" + id, ADMIN).json().getString("revokedAt"))
        .isNotNull();
    assertThat(enroll(created.json().getString("token"), "revoked-1").status()).isEqualTo(401);
    assertThat(api.delete("/api/v1/enrollment-tokens/" + id, ADMIN).status()).isEqualTo(404);
  }

  @Test
  void eachEnrollmentTakesOneUseUntilTheTokenIsUsedUp() {
    Response created = create(new JsonObject().put("ttlSeconds", 600).put("maxUses", 2));
    String id = created.json().getString("id");
    String token = created.json().getString("token");
    assertThat(enroll(token, "uses-1").status()).isEqualTo(201);
    assertThat(uses(id)).isEqualTo(1);
    assertThat(enroll(token, "uses-2").status()).isEqualTo(201);
    assertThat(uses(id)).isEqualTo(2);
    Response usedUp = enroll(token, "uses-3");
    assertThat(usedUp.status()).isEqualTo(401);
    assertThat(usedUp.body()).contains("used up");
    assertThat(uses(id)).isEqualTo(2);
    assertThat(api.get("/api/v1/clusters/uses-3", ADMIN).status()).isEqualTo(404);
  }

  @Test
  void aTokenLimitedToTenUsesAdmitsExactlyTenOfFifteenConcurrentEnrollmentsEachAudited() {
    Response created = create(new JsonObject().put("ttlSeconds", 600).put("maxUses", 10));
    String token = created.json().getString("token");
    ExecutorService threads = Executors.newFixedThreadPool(15);
    try {
      List<CompletableFuture<Integer>> statuses =
          IntStream.range(0, 15)
              .mapToObj(
                  i ->
                      CompletableFuture.supplyAsync(
                          () -> enroll(token, "racer-" + i).status(), threads))
              .toList();
      List<Integer> answers = statuses.stream().map(CompletableFuture::join).toList();
      assertThat(answers).filteredOn(s -> s == 201).hasSize(10);
      assertThat(answers).filteredOn(s -> s == 401).hasSize(5);
    } finally {
      threads.shutdownNow();
    }
    assertThat(uses(created.json().getString("id"))).isEqualTo(10);
    assertThat(
            api.get("/api/v1/audit?limit=500", ADMIN).items().stream()
                .map(JsonObject.class::cast)
                .filter(e -> "agent.enroll".equals(e.getString("action")))
                .filter(e -> e.getString("resource").startsWith("clusters/racer-")))
        .hasSize(10);
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

  private static Response enroll(String token, String cluster) {
    return api.send(
        "POST",
        "/api/v1/agent/enroll",
        token,
        "application/json",
        new JsonObject()
            .put("clusterName", cluster)
            .put("facts", new JsonObject())
            .encode()
            .getBytes(StandardCharsets.UTF_8),
        Map.of());
  }

  private static int uses(String id) {
    return api.get("/api/v1/enrollment-tokens/" + id, ADMIN).json().getInteger("uses");
  }
}
