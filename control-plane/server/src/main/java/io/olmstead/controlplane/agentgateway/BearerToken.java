package io.olmstead.controlplane.agentgateway;

import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;

/** Reads the {@code Authorization: Bearer} secret of an agent request. */
public final class BearerToken {
  private BearerToken() {}

  public static Optional<String> of(HttpServerRequest request) {
    String header = request.getHeader("Authorization");
    if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    String token = header.substring(7).trim();
    return token.isEmpty() || token.length() > 512 ? Optional.empty() : Optional.of(token);
  }
}
