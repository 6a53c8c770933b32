package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.catalog.CatalogStore;
import io.olmstead.controlplane.catalog.RevisionUpload;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.image.ImageReferences;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.olmcore.bundle.BundleLimits;
import io.olmstead.olmcore.tar.TarLimits;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /bundles}: a bundle image's unpack state by digest, and unpacking on request; also starts
 * the poller of catalogs with an image source and the sweep pinning bundle tags, each on a registry
 * pool of its own.
 */
public final class BundlesModule implements ApiModule {
  private BundleUnpacks unpacks;
  private CatalogImagePoller poller;
  private BundlePins pins;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    RegistrySettings settings = ctx.config().registry();
    RegistryMetrics requests = new RegistryMetrics(ctx.registry());
    // OLMSTEAD_REGISTRY_SWEEP_SECONDS (5): the unpack retries' first wait, the poll sweep, and half
    // the period at
    // which the catalog poll gauges are read from PostgreSQL (per replica, whatever the scrape
    // interval)
    Duration sweep = settings.sweep();
    unpacks =
        new BundleUnpacks(
            ctx.vertx(),
            ctx.pool(),
            settings,
            BundleLimits.defaults(),
            sweep,
            requests,
            ctx.registry());
    // two threads of its own: polls are few, and must not wait behind bundle unpacks
    poller =
        new CatalogImagePoller(
            ctx.vertx(),
            ctx.pool(),
            new RegistryPool(ctx.vertx(), settings, requests, "olmstead-catalog-poll", 2),
            new CatalogImagePull(settings, TarLimits.catalogImage()),
            new RevisionUpload(
                ctx.vertx(), ctx.tx(), new CatalogStore(), ctx.config().maxBodyBytes()),
            new CatalogPollMetrics(ctx.vertx(), ctx.pool(), ctx.registry(), 2 * sweep.toMillis()),
            sweep.toMillis());
    ApiModule.bind(
        builder,
        "getBundle",
        r ->
            unpacks
                .get(r.path("digest"))
                .map(
                    b ->
                        Reply.ok(
                            b.orElseThrow(
                                    () ->
                                        ApiException.notFound(
                                            "no bundle image " + r.path("digest")))
                                .toJson())));
    ApiModule.bind(builder, "unpackBundle", r -> request(ctx, r));
    ApiModule.bind(builder, "unpackCatalogPackage", new PackageUnpack(ctx, unpacks)::handle);
    // its own two threads too: a sweep of tags on slow registries must not take the workers unpacks
    // wait for
    pins =
        new BundlePins(
            ctx.vertx(),
            ctx.pool(),
            new RegistryPool(ctx.vertx(), settings, requests, "olmstead-bundle-pin", 2),
            2000);
  }

  /**
   * Tag-pin sweeps completed on this replica: tests await them rather than waiting for time to
   * pass.
   */
  public long completedPinSweeps() {
    return pins == null ? 0 : pins.completedSweeps();
  }

  private Future<Reply> request(ApiContext ctx, ApiRequest r) {
    String image = r.body().getString("image", "");
    var problem = ImageReferences.check(image, ctx.config().registry());
    if (problem.isEmpty() && BundleUnpacks.digestOf(image).isEmpty()) {
      problem =
          Optional.of(
              "expected REGISTRY/REPOSITORY@sha256:<64 hex>: the image must be pinned by "
                  + "digest");
    }
    if (problem.isPresent()) {
      return Future.failedFuture(
          ApiException.validationFailed(
              "the image is not usable: " + problem.get(),
              new JsonArray()
                  .add(new JsonObject().put("field", "/image").put("message", problem.get()))));
    }
    String digest = BundleUnpacks.digestOf(image).orElseThrow();
    // the request uses the pool itself: audit after it, never holding a connection while it waits
    // for another
    return unpacks
        .request(image, true)
        .compose(
            b ->
                ctx.tx()
                    .audited(
                        r.audit("bundle.unpack", "bundles/" + digest),
                        conn -> Future.succeededFuture(b),
                        x -> new JsonObject().put("image", image).put("state", x.state())))
        .map(b -> new Reply(202, b.toJson(), Map.of()));
  }
}
