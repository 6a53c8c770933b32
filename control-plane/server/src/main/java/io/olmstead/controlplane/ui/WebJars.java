package io.olmstead.controlplane.ui;

import io.olmstead.controlplane.http.SecurityHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The dashboard's libraries from Maven Central WebJars (on the classpath under {@code
 * META-INF/resources/webjars}), served at {@code /ui/lib/NAME/VERSION/...} with the dashboard's
 * headers, e.g. Chart.js at {@code /ui/lib/chart.js/4.4.1/dist/chart.umd.js}. No Node build: the
 * jar is the library.
 */
public final class WebJars {
  private WebJars() {}

  public static void mount(Router router) {
    router
        .route("/ui/lib/*")
        .handler(SecurityHeaders::dashboard)
        .handler(
            StaticHandler.create("META-INF/resources/webjars")
                .setDefaultContentEncoding("UTF-8")
                .setDirectoryListing(false));
  }
}
