package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.http.SecurityHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/** Serves the dashboard ({@code webroot/ui} on the classpath) at {@code /ui/}; it reads the API with the user's token. */
public final class Dashboard {
  private Dashboard() {
  }

  public static void mount(Router router) {
    // "/ui" and "/ui/" match the same exact route in Vert.x, so the bare path is matched by a regex
    router.getWithRegex("^/ui$").handler(SecurityHeaders::dashboard).handler(ctx -> ctx.redirect("/ui/"));
    // Chart.js from its WebJar (a Maven Central jar, no Node build): /ui/lib/chart.js/<version>/dist/chart.umd.js
    router.route("/ui/lib/*").handler(SecurityHeaders::dashboard)
        .handler(StaticHandler.create("META-INF/resources/webjars").setDefaultContentEncoding("UTF-8"));
    router.route("/ui/*").handler(SecurityHeaders::dashboard).handler(StaticHandler.create("webroot/ui").setCachingEnabled(false)
        .setDefaultContentEncoding("UTF-8"));
  }
}
