package io.olmstead.controlplane.maturity;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * {@code /catalogs/{name}/packages/{package}/...maturity}: bundle maturity reports and upgrade
 * diffs.
 */
public final class MaturityModule implements ApiModule {

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    MaturityService maturity =
        new MaturityService(ctx.vertx(), ctx.tx(), ctx.config().maxBodyBytes());
    ApiModule.bind(
        builder,
        "getBundleMaturity",
        r -> maturity.report(r.path("name"), r.path("package"), r.path("bundle")));
    ApiModule.bind(
        builder,
        "getCatalogMaturity",
        r -> maturity.summary(r.path("name"), r.limit(), r.cursor().orElse(null)));
    ApiModule.bind(
        builder,
        "getMaturityDiff",
        r ->
            maturity.diff(
                r.path("name"),
                r.path("package"),
                r.query("from").orElse(""),
                r.query("to").orElse("")));
  }
}
