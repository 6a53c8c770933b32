package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code GET /pool-tokens} lists without secrets; one live token per name. */
class PoolTokensIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(PoolTokensIT.class);
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  @Test
  void aLiveNameIsTakenOnceAndFreedByRevocationAndTheListShowsBothNewestFirstWithoutSecrets() {
    Response first =
        api.json("POST", "/api/v1/pool-tokens", ADMIN, new JsonObject().put("name", "east"));
    assertThat(first.status()).as(first.body()).isEqualTo(201);
    String id = first.json().getString("id");
    String secret = first.json().getString("token");

    Response again =
        api.json("POST", "/api/v1/pool-tokens", ADMIN, new JsonObject().put("name", "east"));
    assertThat(again.status()).as(again.body()).isEqualTo(409);
    assertThat(again.json().getString("detail")).contains("east");

    assertThat(api.delete("/api/v1/pool-tokens/" + id, ADMIN).status()).isEqualTo(204);
    Response renewed =
        api.json("POST", "/api/v1/pool-tokens", ADMIN, new JsonObject().put("name", "east"));
    assertThat(renewed.status()).as(renewed.body()).isEqualTo(201);

    Response list = api.get("/api/v1/pool-tokens", ADMIN);
    assertThat(list.status()).as(list.body()).isEqualTo(200);
    assertThat(list.body())
        .doesNotContain(secret)
        .doesNotContain(renewed.json().getString("token"));
    List<JsonObject> east =
        list.items().stream()
            .map(JsonObject.class::cast)
            .filter(t -> "east".equals(t.getString("name")))
            .toList();
    assertThat(east).hasSize(2);
    JsonObject newest = east.get(0);
    JsonObject revoked = east.get(1);
    assertThat(newest.getString("id")).isEqualTo(renewed.json().getString("id"));
    assertThat(newest.getString("revokedAt")).isNull();
    assertThat(newest.getJsonArray("members")).isEmpty();
    assertThat(revoked.getString("id")).isEqualTo(id);
    assertThat(revoked.getString("revokedAt")).isNotNull();
  }

  @Test
  void pagesFollowTheCursorAndOnlyAnAdminOfNoTeamMayList() {
    for (String name : List.of("p1", "p2", "p3")) {
      assertThat(
              api.json("POST", "/api/v1/pool-tokens", ADMIN, new JsonObject().put("name", name))
                  .status())
          .isEqualTo(201);
    }
    Response page = api.get("/api/v1/pool-tokens?limit=1", ADMIN);
    assertThat(page.items()).hasSize(1);
    String cursor = page.json().getString("nextCursor");
    assertThat(cursor).isNotNull();
    Response next = api.get("/api/v1/pool-tokens?limit=1&cursor=" + cursor, ADMIN);
    assertThat(next.items()).hasSize(1);
    assertThat(next.items().getJsonObject(0).getString("id"))
        .isNotEqualTo(page.items().getJsonObject(0).getString("id"));

    String teamAdmin = api.createToken(ADMIN, "team-admin", "admin", List.of("blue"));
    assertThat(api.get("/api/v1/pool-tokens", teamAdmin).status()).isEqualTo(403);
  }
}
