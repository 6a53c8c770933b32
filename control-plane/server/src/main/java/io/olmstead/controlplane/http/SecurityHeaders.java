package io.olmstead.controlplane.http;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * Response headers: {@code X-Content-Type-Options: nosniff} on the API and every problem document,
 * and for the dashboard a Content-Security-Policy that allows only its own scripts, styles and API
 * calls, and no framing.
 */
public final class SecurityHeaders {
  /**
   * The dashboard loads app.js and style.css from /ui/ and calls the API on the same origin;
   * nothing else.
   */
  public static final String DASHBOARD_CSP =
      "default-src 'none'; script-src 'self'; style-src 'self'; "
          + "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private SecurityHeaders() {}

  /** For the dashboard's routes, ahead of its static files. */
  public static void dashboard(RoutingContext ctx) {
    nosniff(ctx.response())
        .putHeader("Content-Security-Policy", DASHBOARD_CSP)
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("Referrer-Policy", "no-referrer");
    ctx.next();
  }

  /** For the API's routes (problem documents set it themselves, wherever they come from). */
  public static void api(RoutingContext ctx) {
    nosniff(ctx.response());
    ctx.next();
  }

  static HttpServerResponse nosniff(HttpServerResponse response) {
    return response.putHeader("X-Content-Type-Options", "nosniff");
  }
}
