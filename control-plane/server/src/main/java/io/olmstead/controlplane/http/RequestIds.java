package io.olmstead.controlplane.http;

import io.vertx.ext.web.RoutingContext;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every request an id (the caller's {@code X-Request-Id} when sane), echoed back and used in
 * logs and audit: API, agent and operations routes alike, so an agent's failed fetch can be found
 * in the control plane's log.
 */
public final class RequestIds {
  private static final Logger ACCESS = LoggerFactory.getLogger("io.olmstead.controlplane.access");
  public static final String HEADER = "X-Request-Id";
  public static final String KEY = "olmstead.requestId";
  private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private RequestIds() {}

  public static void handle(RoutingContext ctx) {
    if (ctx.get(KEY) != null) {
      // already given by the outer router (the API router is mounted below it)
      ctx.next();
      return;
    }
    String incoming = ctx.request().getHeader(HEADER);
    String id =
        incoming != null && SANE.matcher(incoming).matches()
            ? incoming
            : UUID.randomUUID().toString();
    ctx.put(KEY, id);
    ctx.response().putHeader(HEADER, id);
    if (ACCESS.isDebugEnabled()) {
      long start = System.nanoTime();
      // Path only, never the query: it may carry selectors worth little and cursors worth nothing
      // in logs.
      ctx.addEndHandler(
          done ->
              ACCESS.debug(
                  "request {} {} {} -> {} in {} ms",
                  id,
                  ctx.request().method(),
                  ctx.request().path(),
                  ctx.response().getStatusCode(),
                  (System.nanoTime() - start) / 1_000_000));
    }
    ctx.next();
  }

  /** The id of this request, or "-" outside the API router. */
  public static String of(RoutingContext ctx) {
    String id = ctx.get(KEY);
    return id == null ? "-" : id;
  }
}
