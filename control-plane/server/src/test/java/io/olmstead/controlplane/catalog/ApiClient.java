package io.olmstead.controlplane.catalog;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A small HTTP client for ITs against a control plane's /api/v1, plus database probes for "nothing
 * changed".
 */
public final class ApiClient {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private final String baseUrl;
  private final String token;

  public ApiClient(String baseUrl, String token) {
    this.baseUrl = baseUrl + "/api/v1";
    this.token = token;
  }

  public HttpResponse<String> get(String path) {
    return send("GET", path, null, null, Map.of());
  }

  public HttpResponse<String> delete(String path, Map<String, String> headers) {
    return send("DELETE", path, null, null, headers);
  }

  public HttpResponse<String> putJson(String path, JsonObject body, Map<String, String> headers) {
    return send(
        "PUT", path, body.encode().getBytes(StandardCharsets.UTF_8), "application/json", headers);
  }

  public HttpResponse<String> post(String path, byte[] body, String contentType) {
    return send("POST", path, body, contentType, Map.of());
  }

  public HttpResponse<String> send(
      String method, String path, byte[] body, String contentType, Map<String, String> headers) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .header("Authorization", "Bearer " + token)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      builder.header("Content-Type", contentType);
    }
    headers.forEach(builder::header);
    try {
      return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(method + " " + path + " failed", e);
    }
  }

  public static JsonObject json(HttpResponse<String> response) {
    return new JsonObject(response.body());
  }

  /**
   * Row counts of every table catalogs and subscriptions write, and of the audit log's successes.
   */
  public static Map<String, Long> counts(DatabaseSettings db) {
    Map<String, Long> out = new LinkedHashMap<>();
    String[] tables = {
      "catalogs",
      "catalog_contents",
      "catalog_revisions",
      "catalog_packages",
      "catalog_channels",
      "catalog_bundles",
      "subscriptions"
    };
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement s = c.createStatement()) {
      for (String table : tables) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
          rs.next();
          out.put(table, rs.getLong(1));
        }
      }
      try (ResultSet rs =
          s.executeQuery("SELECT count(*) FROM audit_log WHERE outcome = 'success'")) {
        rs.next();
        out.put("audit_log(success)", rs.getLong(1));
      }
      try (ResultSet rs =
          s.executeQuery("SELECT coalesce(sum(resource_version), 0) FROM catalogs")) {
        rs.next();
        out.put("catalogs.resource_version", rs.getLong(1));
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot count rows", e);
    }
    return out;
  }

  /** Runs one SQL statement (fixtures such as clusters and status rows). */
  public static void sql(DatabaseSettings db, String sql) {
    TestDatabase.execute(db, sql);
  }
}
