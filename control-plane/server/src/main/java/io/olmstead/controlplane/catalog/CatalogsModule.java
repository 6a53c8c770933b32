package io.olmstead.controlplane.catalog;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.vertx.core.Future;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * {@code /catalogs}: catalog resources, revision upload and listing, packages and upgrade paths.
 */
public final class CatalogsModule implements ApiModule {
  private CatalogService catalogs;
  private RevisionUpload uploads;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.catalogs = new CatalogService(ctx.tx(), ctx.config().registry());
    this.uploads =
        new RevisionUpload(ctx.vertx(), ctx.tx(), catalogs.store(), ctx.config().maxBodyBytes());
    ApiModule.bind(builder, "listCatalogs", r -> catalogs.list(r.limit(), r.cursor().orElse(null)));
    ApiModule.bind(builder, "getCatalog", r -> catalogs.get(r.path("name")));
    ApiModule.bind(
        builder,
        "putCatalog",
        r -> catalogs.put(r.principal(), r.requestId(), r.path("name"), r.body(), r.ifMatch()));
    ApiModule.bind(
        builder,
        "deleteCatalog",
        r -> catalogs.delete(r.principal(), r.requestId(), r.path("name"), r.ifMatch()));
    ApiModule.bind(
        builder,
        "listCatalogRevisions",
        r -> catalogs.revisions(r.path("name"), r.limit(), r.cursor().orElse(null)));
    ApiModule.bind(builder, "uploadCatalogRevision", this::upload);
    ApiModule.bind(
        builder,
        "listCatalogPackages",
        r -> catalogs.packages(r.path("name"), r.limit(), r.cursor().orElse(null)));
    ApiModule.bind(
        builder, "getCatalogPackage", r -> catalogs.pkg(r.path("name"), r.path("package")));
    ApiModule.bind(
        builder,
        "getUpgradePath",
        r ->
            catalogs.upgradePath(
                r.path("name"),
                r.path("package"),
                r.path("channel"),
                r.query("from").orElse(""),
                r.query("to").orElse(null)));
  }

  private Future<Reply> upload(ApiRequest request) {
    return uploads.upload(
        request.principal(),
        request.requestId(),
        request.path("name"),
        request.query("validation").orElse("strict"),
        request.ctx().request());
  }
}
