package io.olmstead.controlplane.analysis;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/** Binds {@code /analysis-templates} to {@link AnalysisTemplates}. */
public final class AnalysisTemplatesModule implements ApiModule {
  private final PrometheusClient prometheus;

  public AnalysisTemplatesModule(PrometheusClient prometheus) {
    this.prometheus = prometheus;
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    AnalysisTemplates templates = new AnalysisTemplates(ctx.tx(), prometheus);
    ApiModule.bind(
        builder,
        "listAnalysisTemplates",
        r -> templates.list(r.principal(), r.limit(), r.cursor().orElse(null)));
    ApiModule.bind(
        builder,
        "getAnalysisTemplate",
        r -> templates.get(r.principal(), r.query("team").orElse(null), r.path("name")));
    ApiModule.bind(
        builder,
        "putAnalysisTemplate",
        r ->
            templates.put(
                r.principal(),
                r.requestId(),
                r.query("team").orElse(null),
                r.path("name"),
                r.body(),
                r.ifMatch()));
    ApiModule.bind(
        builder,
        "deleteAnalysisTemplate",
        r ->
            templates.delete(
                r.principal(),
                r.requestId(),
                r.query("team").orElse(null),
                r.path("name"),
                r.ifMatch()));
  }
}
