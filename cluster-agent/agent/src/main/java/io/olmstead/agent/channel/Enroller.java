package io.olmstead.agent.channel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code POST /api/v1/agent/enroll}: trades the enrollment token for this cluster's credential. */
final class Enroller {
  private final HttpClient http;

  Enroller(HttpClient http) {
    this.http = http;
  }

  /** The credential; fails with {@link EnrollmentRefused} when the control plane says no (4xx). */
  Future<String> enroll(ChannelOptions options) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("clusterName", options.clusterName());
    body.put("labels", options.labels());
    body.put("facts", ProtocolCodec.mapper().convertValue(options.facts(), Map.class));
    String json;
    try {
      json = ProtocolCodec.mapper().writeValueAsString(body);
    } catch (JsonProcessingException e) {
      return Future.failedFuture(e);
    }
    RequestOptions request =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setAbsoluteURI(options.enrollUri().toString())
            .putHeader("Authorization", "Bearer " + options.enrollmentToken())
            .putHeader("Content-Type", "application/json");
    return http.request(request)
        .compose(req -> req.send(Buffer.buffer(json)))
        .compose(
            resp ->
                resp.body()
                    .compose(
                        bytes -> {
                          if (resp.statusCode() != 201) {
                            return Future.failedFuture(
                                new EnrollmentRefused(resp.statusCode(), bytes.toString()));
                          }
                          try {
                            JsonNode answer = ProtocolCodec.mapper().readTree(bytes.getBytes());
                            return Future.succeededFuture(answer.path("credential").asText());
                          } catch (IOException e) {
                            return Future.failedFuture(e);
                          }
                        }));
  }

  /** The control plane refused the enrollment (expired or used-up token, taken name). */
  static final class EnrollmentRefused extends RuntimeException {
    EnrollmentRefused(int status, String body) {
      super(
          "enrollment refused with HTTP "
              + status
              + ": "
              + (body.length() > 300 ? body.substring(0, 300) : body),
          null,
          false,
          false);
    }
  }
}
