package io.olmstead.controlplane.http;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;

/**
 * Response headers every route sends: {@code X-Content-Type-Options: nosniff} everywhere, and for the dashboard a
 * Content-Security-Policy that allows only its own scripts, styles and API calls, and no framing.
 */
public final class SecurityHeaders {
  /** The dashboard loads app.js and style.css from /ui/ and calls the API on the same origin; nothing else. */
  public static final String DASHBOARD_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; "
      + "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private SecurityHeaders() {
  }

  /** Mount first, so that every response (including problems and the static files) carries the headers. */
  public static void mount(Router router) {
    router.route().handler(ctx -> {
      String path = ctx.request().path();
      HttpServerResponse response = ctx.response();
      nosniff(response);
      if (path != null && (path.equals("/ui") || path.startsWith("/ui/"))) {
        response.putHeader("Content-Security-Policy", DASHBOARD_CSP)
            .putHeader("X-Frame-Options", "DENY")
            .putHeader("Referrer-Policy", "no-referrer");
      }
      ctx.next();
    });
  }

  static void nosniff(HttpServerResponse response) {
    response.putHeader("X-Content-Type-Options", "nosniff");
  }
}
