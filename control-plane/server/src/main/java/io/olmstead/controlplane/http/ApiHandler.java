package io.olmstead.controlplane.http;

import io.vertx.core.Future;

/**
 * Handles one validated, authenticated operation; fail the future with {@link ApiException} for
 * client errors.
 */
@FunctionalInterface
public interface ApiHandler {
  Future<Reply> handle(ApiRequest request);
}
