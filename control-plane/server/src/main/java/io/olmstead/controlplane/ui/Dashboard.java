package io.olmstead.controlplane.ui;

import io.olmstead.controlplane.http.SecurityHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * Serves the dashboard ({@code webroot/ui} on the classpath) at {@code /ui/}; it reads the API with
 * the user's token.
 */
public final class Dashboard {
  private Dashboard() {}

  public static void mount(Router router) {
    // "/ui" and "/ui/" match the same exact route in Vert.x, so the bare path is matched by a regex
    router
        .getWithRegex("^/ui$")
        .handler(SecurityHeaders::dashboard)
        .handler(ctx -> ctx.redirect("/ui/"));
    // /ui/lib/*: the WebJars (Chart.js), http/WebJars
    router
        .route("/ui/*")
        .handler(SecurityHeaders::dashboard)
        .handler(
            StaticHandler.create("webroot/ui")
                .setCachingEnabled(false)
                .setDefaultContentEncoding("UTF-8"));
  }
}
