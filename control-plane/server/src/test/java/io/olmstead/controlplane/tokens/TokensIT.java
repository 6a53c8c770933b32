package io.olmstead.controlplane.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class TokensIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TokensIT.class);
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void createdTokenIsShownOnceAndWorksWithItsRole() {
    Response created =
        api.json(
            "POST",
            "/api/v1/tokens",
            ADMIN,
            new JsonObject().put("name", "ci-viewer").put("role", "viewer"));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String secret = created.json().getString("token");
    assertThat(secret).startsWith("olm_v_").hasSizeGreaterThan(40);
    assertThat(created.json().getString("role")).isEqualTo("viewer");
    assertThat(api.get("/api/v1/clusters", secret).status()).isEqualTo(200);
    Response denied =
        api.json(
            "POST",
            "/api/v1/tokens",
            secret,
            new JsonObject().put("name", "x").put("role", "admin"));
    assertThat(denied.status()).isEqualTo(403);
    assertThat(denied.code()).isEqualTo("forbidden");
    Response me = api.get("/api/v1/whoami", secret);
    assertThat(me.status()).isEqualTo(200);
    assertThat(me.json().getString("name")).isEqualTo("ci-viewer");
    assertThat(me.json().getString("role")).isEqualTo("viewer");
    assertThat(me.json().getJsonArray("teams")).isEmpty();
  }

  @Test
  void listingNeverShowsSecretsAndPagesByName() {
    for (String name : List.of("list-c", "list-a", "list-b")) {
      api.createToken(ADMIN, name, "operator", List.of());
    }
    Response page = api.get("/api/v1/tokens?limit=2", ADMIN);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.body()).doesNotContain("\"token\"").doesNotContain("olm_");
    List<String> names = new ArrayList<>();
    String cursor = null;
    do {
      Response next =
          api.get("/api/v1/tokens?limit=2" + (cursor == null ? "" : "&cursor=" + cursor), ADMIN);
      next.items().forEach(item -> names.add(((JsonObject) item).getString("name")));
      cursor = next.json().getString("nextCursor");
    } while (cursor != null);
    assertThat(names)
        .isSorted()
        .contains("bootstrap-admin", "list-a", "list-b", "list-c")
        .doesNotHaveDuplicates();
  }

  @Test
  void revokedTokenStopsWorkingAtOnce() {
    Response created =
        api.json(
            "POST",
            "/api/v1/tokens",
            ADMIN,
            new JsonObject().put("name", "short-lived").put("role", "operator"));
    String secret = created.json().getString("token");
    String id = created.json().getString("id");
    assertThat(api.get("/api/v1/clusters", secret).status()).isEqualTo(200);
    assertThat(api.delete("/api/v1/tokens/" + id, ADMIN).status()).isEqualTo(204);
    Response rejected = api.get("/api/v1/clusters", secret);
    assertThat(rejected.status()).isEqualTo(401);
    assertThat(rejected.code()).isEqualTo("unauthorized");
    assertThat(api.delete("/api/v1/tokens/" + id, ADMIN).status()).isEqualTo(404);
    assertThat(api.get("/api/v1/tokens?limit=500", ADMIN).body()).doesNotContain(id);
  }

  @Test
  void aTokenRevokedOnOneReplicaStopsWorkingOnAnotherThroughTheNotificationNotTheCacheLifetime()
      throws Exception {
    // The other replica's clock stands still: its 5 s cache of the token never expires, so only the
    // revocation's
    // notification can make it refuse the token.
    TestControlPlane other =
        TestControlPlane.start(
            cp.database(), Map.of(), 0, Clock.fixed(Instant.now(), ZoneOffset.UTC));
    try {
      ApiClient second = new ApiClient(other);
      Response created =
          api.json(
              "POST",
              "/api/v1/tokens",
              ADMIN,
              new JsonObject().put("name", "two-replicas").put("role", "viewer"));
      String secret = created.json().getString("token");
      assertThat(second.get("/api/v1/clusters", secret).status())
          .as("cached as valid on the other replica")
          .isEqualTo(200);
      assertThat(api.delete("/api/v1/tokens/" + created.json().getString("id"), ADMIN).status())
          .isEqualTo(204);
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> second.get("/api/v1/clusters", secret).status() == 401);
    } finally {
      other.close();
    }
  }

  @Test
  void theConfiguredAdminTokensNameIsReservedEvenAfterItWasRevoked() {
    Response taken =
        api.json(
            "POST",
            "/api/v1/tokens",
            ADMIN,
            new JsonObject()
                .put("name", "bootstrap-admin")
                .put("role", "viewer")
                .put("teams", new io.vertx.core.json.JsonArray().add("alpha")));
    assertThat(taken.status()).as(taken.body()).isEqualTo(422);
    assertThat(taken.body()).contains("/name").contains("reserved");
  }

  @Test
  void aDuplicateLiveNameIsAConflict() {
    api.createToken(ADMIN, "dup-name", "viewer", List.of());
    Response again =
        api.json(
            "POST",
            "/api/v1/tokens",
            ADMIN,
            new JsonObject().put("name", "dup-name").put("role", "viewer"));
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.code()).isEqualTo("conflict");
  }

  @Test
  void aTeamScopedAdminMintsOnlyTokensOfItsOwnTeams() {
    String teamAdmin = api.createToken(ADMIN, "team-a-admin", "admin", List.of("team-a"));
    Response unscoped =
        api.json(
            "POST",
            "/api/v1/tokens",
            teamAdmin,
            new JsonObject().put("name", "wide").put("role", "viewer"));
    assertThat(unscoped.status()).isEqualTo(403);
    Response other =
        api.json(
            "POST",
            "/api/v1/tokens",
            teamAdmin,
            new JsonObject()
                .put("name", "other")
                .put("role", "viewer")
                .put("teams", List.of("team-b")));
    assertThat(other.status()).isEqualTo(403);
    Response own =
        api.json(
            "POST",
            "/api/v1/tokens",
            teamAdmin,
            new JsonObject()
                .put("name", "own")
                .put("role", "viewer")
                .put("teams", List.of("team-a")));
    assertThat(own.status()).isEqualTo(201);
    Response listed = api.get("/api/v1/tokens?limit=500", teamAdmin);
    List<String> names = new ArrayList<>();
    listed.items().forEach(item -> names.add(((JsonObject) item).getString("name")));
    assertThat(names).contains("own", "team-a-admin").doesNotContain("bootstrap-admin", "dup-name");
  }

  @Test
  void secretsAreNeverStoredOrLoggedInClear() throws Exception {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    Level level = root.getLevel();
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    root.addAppender(appender);
    root.setLevel(Level.DEBUG);
    List<String> secrets = new ArrayList<>();
    try {
      secrets.add(api.createToken(ADMIN, "secret-check", "admin", List.of()));
      Response enrollment =
          api.json(
              "POST",
              "/api/v1/enrollment-tokens",
              ADMIN,
              new JsonObject().put("ttlSeconds", 600).put("maxUses", 1));
      secrets.add(enrollment.json().getString("token"));
      api.get("/api/v1/clusters", secrets.get(0));
      api.get("/api/v1/clusters", "olm_wrong_" + secrets.get(0));
      api.send(
          "GET",
          "/api/v1/clusters",
          null,
          null,
          null,
          Map.of("Authorization", "Basic " + secrets.get(1)));
    } finally {
      root.detachAppender(appender);
      root.setLevel(level);
    }
    secrets.add(ADMIN);
    for (ILoggingEvent event : appender.list) {
      for (String secret : secrets) {
        assertThat(event.getFormattedMessage()).doesNotContain(secret);
      }
    }
    try (Connection connection =
        DriverManager.getConnection(
            cp.database().jdbcUrl(), cp.database().user(), cp.database().password())) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs =
          connection
              .createStatement()
              .executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      for (String table : tables) {
        for (String secret : secrets) {
          try (var statement =
              connection.prepareStatement(
                  "SELECT count(*) FROM \"" + table + "\" t WHERE t::text LIKE ?")) {
            statement.setString(1, "%" + secret + "%");
            try (ResultSet rs = statement.executeQuery()) {
              rs.next();
              assertThat(rs.getInt(1)).as("secret in table " + table).isZero();
            }
          }
        }
      }
    }
  }
}
