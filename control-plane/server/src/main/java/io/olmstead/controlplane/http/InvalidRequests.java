package io.olmstead.controlplane.http;

import io.netty.handler.codec.TooLongFrameException;
import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * Answers requests the HTTP decoder refused (request line or headers over the limit, malformed)
 * with the API's problem document instead of Vert.x's empty body, then closes the connection as
 * Vert.x's default handler does.
 */
public final class InvalidRequests {
  /**
   * The server's decoder limits, as ControlPlane sets them in its HttpServerOptions, named in the
   * problems.
   */
  public static final int MAX_INITIAL_LINE_BYTES = 8 * 1024;

  public static final int MAX_HEADER_BYTES = 16 * 1024;

  private InvalidRequests() {}

  public static void handle(HttpServerRequest request) {
    Throwable cause = request.decoderResult() == null ? null : request.decoderResult().cause();
    String message = cause == null || cause.getMessage() == null ? "" : cause.getMessage();
    JsonObject problem;
    if (cause instanceof TooLongFrameException
        && message.startsWith("An HTTP line is larger than")) {
      problem =
          Problems.problem(
              414,
              "uri-too-long",
              "URI Too Long",
              "the request line is over the limit of " + MAX_INITIAL_LINE_BYTES + " bytes");
    } else if (cause instanceof TooLongFrameException
        && message.startsWith("HTTP header is larger than")) {
      problem =
          Problems.problem(
              431,
              "headers-too-large",
              "Request Header Fields Too Large",
              "the request headers are over the limit of " + MAX_HEADER_BYTES + " bytes");
    } else {
      problem =
          Problems.problem(400, "bad-request", "Bad Request", "the request is not valid HTTP");
    }
    HttpServerResponse response = request.response();
    Problems.send(response, problem);
    response.close();
  }
}
