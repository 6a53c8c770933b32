package io.olmstead.controlplane.http;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.Map;

/** A successful response an {@link ApiHandler} returns: status, optional JSON body and headers. */
public record Reply(int status, JsonObject body, Map<String, String> headers) {

  public static Reply ok(JsonObject body) {
    return new Reply(200, body, Map.of());
  }

  public static Reply created(JsonObject body) {
    return new Reply(201, body, Map.of());
  }

  public static Reply noContent() {
    return new Reply(204, null, Map.of());
  }

  /** The same reply carrying {@code ETag} for this resource version. */
  public Reply withEtag(long resourceVersion) {
    return withHeader("ETag", ETags.of(resourceVersion));
  }

  public Reply withHeader(String name, String value) {
    Map<String, String> copy = new LinkedHashMap<>(headers);
    copy.put(name, value);
    return new Reply(status, body, Map.copyOf(copy));
  }

  public void send(RoutingContext ctx) {
    var response = ctx.response();
    if (response.ended() || response.closed()) {
      return;
    }
    response.setStatusCode(status).putHeader("cache-control", "no-store");
    headers.forEach(response::putHeader);
    if (body == null) {
      response.end();
    } else {
      response.putHeader("content-type", "application/json").end(body.toBuffer());
    }
  }
}
