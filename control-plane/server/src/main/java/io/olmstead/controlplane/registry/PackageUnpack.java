package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /catalogs/{name}/packages/{package}/unpack} {@code {channel?}}: queues every bundle
 * image of a package (or of one of its channels) in the catalog's current revision, a Failed one
 * tried again, and answers each bundle's digest and state. Bundles with embedded objects need no
 * image and are left out.
 */
final class PackageUnpack {
  private static final String CURRENT = "SELECT current_revision FROM catalogs WHERE name = $1";
  private static final String BUNDLES =
      "SELECT bundle, version, image, image_digest, pin_error, channels "
          + "FROM catalog_bundles WHERE catalog = $1 AND revision = $2 AND package = $3 "
          + "AND embedded IS NOT TRUE AND (image_digest IS NOT NULL OR embedded = false) ORDER BY version, bundle";
  // the package, and (when asked) its channel: 0 rows = no package, false = no such channel
  private static final String PACKAGE =
      "SELECT $4::text IS NULL OR EXISTS (SELECT 1 FROM catalog_channels ch "
          + "WHERE ch.catalog = p.catalog AND ch.revision = p.revision AND ch.package = p.package AND ch.channel = $4) "
          + "FROM catalog_packages p WHERE p.catalog = $1 AND p.revision = $2 AND p.package = $3";

  /**
   * Bounds one request's work; a package larger than this is unpacked by several calls per channel.
   */
  static final int MAX_BUNDLES = 500;

  private final ApiContext ctx;
  private final BundleUnpacks unpacks;

  PackageUnpack(ApiContext ctx, BundleUnpacks unpacks) {
    this.ctx = ctx;
    this.unpacks = unpacks;
  }

  Future<Reply> handle(ApiRequest r) {
    String catalog = r.path("name");
    String pkg = r.path("package");
    String channel = r.body().getString("channel");
    return ctx.tx()
        .read(
            conn ->
                conn.preparedQuery(CURRENT)
                    .execute(Tuple.of(catalog))
                    .compose(
                        rows -> {
                          Integer revision =
                              rows.size() == 0 ? null : rows.iterator().next().getInteger(0);
                          if (revision == null) {
                            throw ApiException.notFound(
                                rows.size() == 0
                                    ? "catalog " + catalog + " does not exist"
                                    : "catalog " + catalog + " has no revision");
                          }
                          return conn.preparedQuery(PACKAGE)
                              .execute(Tuple.of(catalog, revision, pkg, channel))
                              .compose(
                                  found -> {
                                    if (found.size() == 0) {
                                      throw ApiException.notFound(
                                          "package " + pkg + " is not in catalog " + catalog);
                                    }
                                    if (!found.iterator().next().getBoolean(0)) {
                                      throw ApiException.notFound(
                                          "channel " + channel + " is not in package " + pkg);
                                    }
                                    return conn.preparedQuery(BUNDLES)
                                        .execute(Tuple.of(catalog, revision, pkg))
                                        .map(
                                            bundles -> {
                                              List<Row> out = new ArrayList<>();
                                              bundles.forEach(
                                                  b -> {
                                                    if (channel == null
                                                        || List.of(b.getArrayOfStrings("channels"))
                                                            .contains(channel)) {
                                                      out.add(b);
                                                    }
                                                  });
                                              return new Selected(revision, out);
                                            });
                                  });
                        }))
        .compose(
            selected -> {
              if (selected.rows.size() > MAX_BUNDLES) {
                return Future.failedFuture(
                    ApiException.validationFailed(
                        "the package has "
                            + selected.rows.size()
                            + " bundle images; at most "
                            + MAX_BUNDLES
                            + " per request",
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("field", "/channel")
                                    .put("message", "name a channel"))));
              }
              // requests use the pool themselves: audit after them, never holding a connection
              // while waiting for another
              return queue(selected.rows)
                  .compose(
                      states ->
                          ctx.tx()
                              .audited(
                                  r.audit(
                                      "catalog.package.unpack",
                                      "catalogs/" + catalog + "/packages/" + pkg),
                                  conn -> Future.succeededFuture(states),
                                  s ->
                                      new JsonObject()
                                          .put("channel", channel)
                                          .put("bundles", s.size()))
                              .map(
                                  s -> {
                                    JsonObject body =
                                        new JsonObject()
                                            .put("catalog", catalog)
                                            .put("revision", selected.revision)
                                            .put("package", pkg)
                                            .put("bundles", s);
                                    if (channel != null) {
                                      body.put("channel", channel);
                                    }
                                    return new Reply(202, body, Map.of());
                                  }));
            });
  }

  private record Selected(int revision, List<Row> rows) {}

  private Future<JsonArray> queue(List<Row> rows) {
    Future<JsonArray> all = Future.succeededFuture(new JsonArray());
    for (Row b : rows) {
      all = all.compose(out -> state(b).map(out::add));
    }
    return all;
  }

  private Future<JsonObject> state(Row b) {
    JsonObject json =
        new JsonObject()
            .put("bundle", b.getString("bundle"))
            .put("version", b.getString("version"))
            .put("image", b.getString("image"));
    String digest = b.getString("image_digest");
    if (digest == null) {
      String error = b.getString("pin_error");
      return Future.succeededFuture(
          json.put("state", error == null ? BundleImage.PENDING : BundleImage.FAILED)
              .put("message", error == null ? "the tag is not resolved to a digest yet" : error));
    }
    return unpacks
        .request(BundlePins.pinned(b.getString("image"), digest), true)
        .map(
            i -> {
              json.put("digest", digest).put("state", i.state());
              if (i.message() != null) {
                json.put("message", i.message());
              }
              return json;
            });
  }
}
