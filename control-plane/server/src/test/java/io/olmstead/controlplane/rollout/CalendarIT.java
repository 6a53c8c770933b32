package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Maintenance windows and freezes over the REST API on real PostgreSQL. */
class CalendarIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(CalendarIT.class);
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static JsonObject window() {
    return new JsonObject()
        .put("selector", "region=eu")
        .put("cron", "0 22 * * 6")
        .put("durationMinutes", 240)
        .put("timeZone", "Europe/Berlin");
  }

  private static Response put(String path, JsonObject body, String ifMatch) {
    return api.send(
        "PUT",
        "/api/v1" + path,
        ADMIN,
        "application/json",
        body.encode().getBytes(StandardCharsets.UTF_8),
        ifMatch == null ? Map.of() : Map.of("If-Match", ifMatch));
  }

  @Test
  void windowIsCreatedReadUpdatedUnderIfMatchAndDeletedWithAudit() {
    Response created = put("/maintenance-windows/eu-weekend", window(), null);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.header("ETag")).isEqualTo("\"1\"");
    assertThat(created.json().getString("timeZone")).isEqualTo("Europe/Berlin");

    Response stale =
        put("/maintenance-windows/eu-weekend", window().put("durationMinutes", 60), "\"7\"");
    assertThat(stale.status()).isEqualTo(412);
    Response updated =
        put("/maintenance-windows/eu-weekend", window().put("durationMinutes", 60), "\"1\"");
    assertThat(updated.status()).as(updated.body()).isEqualTo(200);
    assertThat(updated.header("ETag")).isEqualTo("\"2\"");

    Response read = api.get("/api/v1/maintenance-windows/eu-weekend", ADMIN);
    assertThat(read.json().getInteger("durationMinutes")).isEqualTo(60);
    assertThat(read.json().getString("cron")).isEqualTo("0 22 * * 6");
    assertThat(api.get("/api/v1/maintenance-windows", ADMIN).items())
        .extracting(o -> ((JsonObject) o).getString("name"))
        .contains("eu-weekend");

    assertThat(api.delete("/api/v1/maintenance-windows/eu-weekend", ADMIN).status()).isEqualTo(204);
    assertThat(api.get("/api/v1/maintenance-windows/eu-weekend", ADMIN).status()).isEqualTo(404);
    assertThat(
            count(
                "SELECT count(*) FROM audit_log WHERE resource = 'maintenance_windows/eu-weekend' AND action IN "
                    + "('maintenance-window.put', 'maintenance-window.delete') AND outcome = 'success'"))
        .isEqualTo(3);
  }

  @Test
  void freezeIsStoredWithItsReasonAndListedByName() {
    JsonObject freeze =
        new JsonObject()
            .put("start", "2026-12-20T00:00:00Z")
            .put("end", "2027-01-04T00:00:00+01:00")
            .put("reason", "year-end");
    Response created = put("/freezes/year-end", freeze, null);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().getString("end")).isEqualTo("2027-01-03T23:00:00Z");
    assertThat(created.json().getString("selector")).isEmpty();
    assertThat(put("/freezes/b-freeze", freeze, null).status()).isEqualTo(201);
    Response page = api.get("/api/v1/freezes?limit=1", ADMIN);
    assertThat(page.items()).hasSize(1);
    assertThat(page.items().getJsonObject(0).getString("name")).isEqualTo("b-freeze");
    assertThat(page.json().getString("nextCursor")).isNotBlank();
    assertThat(api.get("/api/v1/freezes/year-end", ADMIN).json().getString("reason"))
        .isEqualTo("year-end");
  }

  static Stream<Arguments> badBodies() {
    return Stream.of(
        Arguments.of("/maintenance-windows/bad", window().put("cron", "61 * * * *"), "/cron"),
        Arguments.of("/maintenance-windows/bad", window().put("cron", "0 0 * * * *"), "/cron"),
        Arguments.of(
            "/maintenance-windows/bad", window().put("timeZone", "Mars/Olympus_Mons"), "/timeZone"),
        Arguments.of(
            "/maintenance-windows/bad", window().put("durationMinutes", 0), "/durationMinutes"),
        Arguments.of(
            "/maintenance-windows/bad", window().put("durationMinutes", -5), "/durationMinutes"),
        Arguments.of(
            "/maintenance-windows/bad",
            window().put("durationMinutes", 4294967297L),
            "/durationMinutes"),
        Arguments.of(
            "/maintenance-windows/bad", window().put("selector", "region in ("), "/selector"),
        Arguments.of(
            "/freezes/bad",
            new JsonObject()
                .put("start", "2026-12-20T00:00:00Z")
                .put("end", "2026-12-19T00:00:00Z"),
            "/end"),
        Arguments.of("/maintenance-windows/bad", window().put("cron", "0 22 30 2 *"), "/cron"),
        Arguments.of(
            "/freezes/bad",
            new JsonObject()
                .put("start", "-999999999-01-01T00:00:00Z")
                .put("end", "2026-12-19T00:00:00Z"),
            "/start"),
        Arguments.of(
            "/freezes/bad",
            new JsonObject().put("start", "next tuesday").put("end", "2026-12-19T00:00:00Z"),
            "/start"));
  }

  @ParameterizedTest(name = "{1} -> {2}")
  @MethodSource("badBodies")
  void badInputIs422NamingTheFieldAndStoresNothing(String path, JsonObject body, String field) {
    long before =
        count("SELECT (SELECT count(*) FROM maintenance_windows) + (SELECT count(*) FROM freezes)");
    Response refused = put(path, body, null);
    assertThat(refused.status()).as(refused.body()).isEqualTo(422);
    assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
    assertThat(refused.json().getJsonArray("errors").getJsonObject(0).getString("field"))
        .isEqualTo(field);
    assertThat(
            count(
                "SELECT (SELECT count(*) FROM maintenance_windows) + (SELECT count(*) FROM freezes)"))
        .isEqualTo(before);
  }

  @Test
  void teamScopedAdminsMayReadButNotChangeTheCalendar() {
    assertThat(
            put(
                    "/freezes/shared",
                    new JsonObject()
                        .put("start", "2026-12-20T00:00:00Z")
                        .put("end", "2026-12-21T00:00:00Z"),
                    null)
                .status())
        .isEqualTo(201);
    String teamAdmin = api.createToken(ADMIN, "cal-team-admin", "admin", List.of("alpha"));
    assertThat(api.get("/api/v1/freezes/shared", teamAdmin).status()).isEqualTo(200);
    assertThat(api.json("PUT", "/api/v1/maintenance-windows/team", teamAdmin, window()).status())
        .isEqualTo(403);
    assertThat(api.delete("/api/v1/freezes/shared", teamAdmin).status()).isEqualTo(403);
    String viewer = api.createToken(ADMIN, "cal-viewer", "viewer", List.of());
    assertThat(api.get("/api/v1/maintenance-windows", viewer).status()).isEqualTo(200);
    assertThat(api.json("PUT", "/api/v1/maintenance-windows/team", viewer, window()).status())
        .isEqualTo(403);
  }

  private static long count(String sql) {
    var db = cp.database();
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (Exception e) {
      throw new IllegalStateException(sql, e);
    }
  }
}
