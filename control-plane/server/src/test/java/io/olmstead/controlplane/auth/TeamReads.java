package io.olmstead.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient.Response;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads as one of alpha's tokens, with the assertions every case shares. */
final class TeamReads {
  private final TeamWorld world;
  final String token;

  TeamReads(TeamWorld world, String token) {
    this.world = world;
    this.token = token;
  }

  int status(String path) {
    Response response = get(path);
    noForeign(response);
    return response.status();
  }

  Response visible(String path) {
    Response response = get(path);
    assertThat(response.status()).as(path + ": " + response.body()).isEqualTo(200);
    noForeign(response);
    return response;
  }

  /** 404, worded exactly as for {@code ghost}, a name no one uses. */
  void hidden(String path, String foreign, String ghost) {
    Response response = get(path);
    Response none = get(path.replace(foreign, ghost));
    assertThat(response.status()).as(path + ": " + response.body()).isEqualTo(404);
    assertThat(withoutRequestId(response.body().replace(foreign, ghost)))
        .isEqualTo(withoutRequestId(none.body()));
  }

  void hiddenPreview(String subscription) {
    Response response = preview(subscription);
    assertThat(response.status()).as(subscription + ": " + response.body()).isEqualTo(404);
    assertThat(withoutRequestId(response.body().replace(subscription, "ghost-sub")))
        .isEqualTo(withoutRequestId(preview("ghost-sub").body()));
  }

  Response preview(String subscription) {
    return world.api.json(
        "POST",
        "/api/v1/rollouts/preview",
        token,
        new JsonObject().put("subscription", subscription).put("targetVersion", "0.9.4"));
  }

  /**
   * Every page of a list, one item a page: each page but the last is full (the team filter is part
   * of the query), and no cursor carries a foreign key (its base64url parts are decoded and
   * searched).
   */
  List<JsonObject> walk(String path) {
    List<JsonObject> items = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < 100; page++) {
      Response response =
          visible(
              path
                  + (path.contains("?") ? "&" : "?")
                  + "limit=1"
                  + (cursor == null ? "" : "&cursor=" + cursor));
      response.items().forEach(item -> items.add((JsonObject) item));
      cursor = response.json().getString("nextCursor");
      if (cursor == null) {
        return items;
      }
      assertThat(response.items()).as("page " + page + " of " + path + " is full").hasSize(1);
      for (String part : cursor.split("[.~]")) {
        try {
          noForeign(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException notBase64) {
          noForeign(part);
        }
      }
    }
    throw new AssertionError(path + " has more than 100 pages");
  }

  List<String> names(Iterable<?> items, String field) {
    List<String> out = new ArrayList<>();
    items.forEach(item -> out.add(((JsonObject) item).getString(field)));
    return out;
  }

  void patchLabel(String as, String cluster, int round) {
    TeamWorld.expect(
        world.api.send(
            "PATCH",
            "/api/v1/clusters/" + cluster,
            as,
            "application/merge-patch+json",
            ("{\"labels\":{\"round\":\"" + round + "\"}}").getBytes(StandardCharsets.UTF_8),
            Map.of()),
        200);
  }

  void noForeign(Response response) {
    noForeign(response.body());
  }

  void noForeign(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    for (String foreign : world.foreign) {
      assertThat(lower)
          .as("must not mention " + foreign)
          .doesNotContain(foreign.toLowerCase(Locale.ROOT));
    }
  }

  private Response get(String path) {
    return world.api.get("/api/v1" + path, token);
  }

  private static String withoutRequestId(String body) {
    return new JsonObject(body).copy().put("requestId", "").encode();
  }
}
