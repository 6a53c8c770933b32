package io.olmstead.controlplane.http;

import java.util.Optional;

/** Strong entity tags over a resource version, and the {@code If-Match} check (RFC 9110: strong comparison). */
public final class ETags {
  private ETags() {
  }

  public static String of(long resourceVersion) {
    return "\"" + resourceVersion + "\"";
  }

  /** Fails with 412 unless {@code ifMatch} is absent, {@code *}, or lists the current version's tag. */
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
      if (!trimmed.startsWith("W/\"") && !(trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\""))) {
        throw ApiException.badRequest("If-Match must list entity tags such as \"3\"", "header.If-Match");
      }
    }
    throw ApiException.preconditionFailed("the resource changed: If-Match " + ifMatch.get() + " does not match "
        + current);
  }
}
