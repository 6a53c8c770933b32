package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * {@code /maintenance-windows} and {@code /freezes}: the fleet's calendar, fleet-wide like
 * catalogs.
 */
public final class CalendarModule implements ApiModule {

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    bind(builder, new CalendarService(ctx.tx(), CalendarKind.WINDOW), "MaintenanceWindow");
    bind(builder, new CalendarService(ctx.tx(), CalendarKind.FREEZE), "Freeze");
  }

  /** Binds list{Kind}s, get{Kind}, put{Kind} and delete{Kind}. */
  private static void bind(RouterBuilder builder, CalendarService service, String kind) {
    ApiModule.bind(
        builder, "list" + kind + "s", r -> service.list(r.limit(), r.cursor().orElse(null)));
    ApiModule.bind(builder, "get" + kind, r -> service.get(r.path("name")));
    ApiModule.bind(
        builder,
        "put" + kind,
        r -> service.put(r.principal(), r.requestId(), r.path("name"), r.body(), r.ifMatch()));
    ApiModule.bind(
        builder,
        "delete" + kind,
        r -> service.delete(r.principal(), r.requestId(), r.path("name"), r.ifMatch()));
  }
}
