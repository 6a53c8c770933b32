package io.olmstead.controlplane.http;

import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A small blocking client for API ITs: raw bytes in, status/headers/JSON out. */
public final class ApiClient {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String baseUrl;

  public ApiClient(TestControlPlane cp) {
    this.baseUrl = cp.baseUrl();
  }

  /** A response, with the body parsed as JSON when it is JSON. */
  public record Response(int status, HttpHeaders headers, String body) {
    public JsonObject json() {
      return new JsonObject(body);
    }

    public String header(String name) {
      return headers.firstValue(name).orElse(null);
    }

    public String code() {
      return json().getString("code");
    }

    public JsonArray items() {
      return json().getJsonArray("items");
    }
  }

  public Response get(String path, String token) {
    return send("GET", path, token, null, null, Map.of());
  }

  public Response delete(String path, String token) {
    return send("DELETE", path, token, null, null, Map.of());
  }

  public Response json(String method, String path, String token, Object body) {
    return send(
        method,
        path,
        token,
        "application/json",
        String.valueOf(body).getBytes(StandardCharsets.UTF_8),
        Map.of());
  }

  public Response send(
      String method,
      String path,
      String token,
      String contentType,
      byte[] body,
      Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    headers.forEach(request::header);
    try {
      HttpResponse<InputStream> response =
          HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = response.body()) {
        // An event stream never ends: its status and headers are all a test can wait for.
        boolean stream =
            response
                .headers()
                .firstValue("content-type")
                .orElse("")
                .startsWith("text/event-stream");
        String text = stream ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        return new Response(response.statusCode(), response.headers(), text);
      }
    } catch (Exception e) {
      throw new IllegalStateException(method + " " + path + " failed", e);
    }
  }

  /** Creates an API token and returns its secret. */
  public String createToken(String adminToken, String name, String role, List<String> teams) {
    Response response =
        json(
            "POST",
            "/api/v1/tokens",
            adminToken,
            new JsonObject()
                .put("name", name)
                .put("role", role)
                .put("teams", new JsonArray(teams)));
    if (response.status() != 201) {
      throw new IllegalStateException(
          "token not created: " + response.status() + " " + response.body());
    }
    return response.json().getString("token");
  }
}
