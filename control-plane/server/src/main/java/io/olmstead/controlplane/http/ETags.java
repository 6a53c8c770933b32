package io.olmstead.controlplane.http;

import io.olmstead.controlplane.problem.ApiException;
import java.util.Optional;

/**
 * Strong entity tags over a resource version, and the {@code If-Match} check (RFC 9110: strong
 * comparison).
 */
public final class ETags {
  private ETags() {}

  public static String of(long resourceVersion) {
    return "\"" + resourceVersion + "\"";
  }

  /**
   * Fails with 412 when a create (PUT on a missing resource) carries any {@code If-Match}: RFC 9110
   * 13.1.1 makes even {@code *} false when there is no current representation, so a client that
   * expected the resource is told it is gone.
   */
  public static void checkMissing(Optional<String> ifMatch, String what) {
    if (ifMatch.isPresent()) {
      throw ApiException.preconditionFailed(
          what + " does not exist (If-Match " + ifMatch.get() + ")");
    }
  }

  /**
   * Fails with 412 unless {@code ifMatch} is absent, {@code *}, or lists the current version's tag.
   */
  public static void check(Optional<String> ifMatch, long currentVersion) {
    if (ifMatch.isEmpty()) {
      return;
    }
    String current = of(currentVersion);
    for (String tag : ifMatch.get().split(",")) {
      String trimmed = tag.trim();
      if (trimmed.equals("*") || trimmed.equals(current)) {
        return;
      }
      if (!trimmed.startsWith("W/\"")
          && !(trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\""))) {
        throw ApiException.badRequest(
            "If-Match must list entity tags such as \"3\"", "header.If-Match");
      }
    }
    throw ApiException.preconditionFailed(
        "the resource changed: If-Match " + ifMatch.get() + " does not match " + current);
  }
}
