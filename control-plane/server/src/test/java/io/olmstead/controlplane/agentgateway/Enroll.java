package io.olmstead.controlplane.agentgateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Calls {@code POST /api/v1/agent/enroll} from tests. */
final class Enroll {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private Enroll() {}

  static HttpResponse<String> post(String baseUrl, String token, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/agent/enroll"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> cluster(String baseUrl, String token, String name) throws Exception {
    return post(
        baseUrl,
        token,
        "{\"clusterName\":\""
            + name
            + "\",\"labels\":{\"region\":\"eu\"},"
            + "\"facts\":{\"kubernetesVersion\":\"v1.30.0\"}}");
  }

  /** Enrolls and returns the credential, failing unless the answer is 201. */
  static String credential(String baseUrl, String token, String name) throws Exception {
    HttpResponse<String> response = cluster(baseUrl, token, name);
    if (response.statusCode() != 201) {
      throw new AssertionError(
          "enroll " + name + ": " + response.statusCode() + " " + response.body());
    }
    return new io.vertx.core.json.JsonObject(response.body()).getString("credential");
  }
}
