package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.catalog.CatalogFormat;
import io.olmstead.controlplane.catalog.CatalogIngest;
import io.olmstead.controlplane.catalog.IngestResult;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.rollout.RolloutTargets.Target;
import io.olmstead.controlplane.subscription.Subscription;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.Gvk;
import io.olmstead.olmcore.fbc.PackageRequirement;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The targets of a multi-target rollout, checked against the database and put in dependency order
 * (I/O around {@link TargetOrder}): each subscription visible to the caller, each version a bundle
 * of the subscription's channel in its catalog's current revision, the bundles' dependency
 * properties read from the catalog content (parsed on a worker, once per content digest). Every
 * refusal is a 422 naming {@code /targets/<i>/...}.
 */
final class TargetBundles {
  private static final String BUNDLE =
      "SELECT b.bundle, b.channels, p.default_channel, r.digest, r.validation "
          + "FROM catalogs c JOIN catalog_revisions r ON r.catalog = c.name AND r.revision = c.current_revision "
          + "LEFT JOIN catalog_packages p ON p.catalog = c.name AND p.revision = c.current_revision AND p.package = $2 "
          + "LEFT JOIN catalog_bundles b ON b.catalog = c.name AND b.revision = c.current_revision AND b.package = $2 "
          + "AND b.version = $3 WHERE c.name = $1";
  private static final String CONTENT =
      "SELECT media_type, content FROM catalog_contents WHERE digest = $1";

  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private final Vertx vertx;
  private final CatalogIngest ingest;

  TargetBundles(Vertx vertx, long maxBodyBytes) {
    this.vertx = vertx;
    this.ingest = new CatalogIngest(maxBodyBytes);
  }

  /** Where a target's bundle is: its name, and the catalog content that carries its properties. */
  private record Located(
      Target target, String packageName, String bundle, String digest, String validation) {}

  /**
   * {@code targets} in the order each cluster takes them (providers first); 422 naming the field
   * otherwise.
   */
  Future<List<Target>> ordered(SqlClient conn, List<Target> targets, Principal caller) {
    Future<List<Located>> found = Future.succeededFuture(new ArrayList<>());
    for (Target t : targets) {
      found =
          found.compose(
              list ->
                  locate(conn, t, caller)
                      .map(
                          l -> {
                            list.add(l);
                            return list;
                          }));
    }
    return found
        .compose(located -> facts(conn, located))
        .map(
            facts -> {
              try {
                return TargetOrder.order(facts).stream().map(targets::get).toList();
              } catch (TargetOrder.CycleException e) {
                JsonArray errors = new JsonArray();
                e.targets()
                    .forEach(
                        i ->
                            errors.add(
                                new JsonObject()
                                    .put("field", "/targets/" + i + "/subscription")
                                    .put("message", e.getMessage())));
                throw ApiException.validationFailed(e.getMessage(), errors);
              }
            });
  }

  private Future<Located> locate(SqlClient conn, Target t, Principal caller) {
    return subscriptions
        .get(conn, t.subscription())
        .compose(
            found -> {
              Subscription sub =
                  found
                      .filter(s -> caller.mayAccessTeam(s.spec().team()))
                      .orElseThrow(
                          () ->
                              RolloutTargets.invalid(
                                  "subscription " + t.subscription() + " does not exist",
                                  t.field("subscription")));
              String pkg = sub.spec().packageName();
              return conn.preparedQuery(BUNDLE)
                  .execute(Tuple.of(sub.spec().catalog(), pkg, t.targetVersion()))
                  .map(
                      rows -> {
                        Row r = rows.size() == 0 ? null : rows.iterator().next();
                        String channel =
                            r == null
                                ? null
                                : sub.spec().channel() != null
                                    ? sub.spec().channel()
                                    : r.getString("default_channel");
                        boolean inChannel =
                            r != null
                                && r.getString("bundle") != null
                                && channel != null
                                && Arrays.asList(r.getArrayOfStrings("channels")).contains(channel);
                        if (!inChannel) {
                          throw RolloutTargets.invalid(
                              "version "
                                  + t.targetVersion()
                                  + " of package "
                                  + pkg
                                  + " is not in channel "
                                  + channel
                                  + " of catalog "
                                  + sub.spec().catalog(),
                              t.field("targetVersion"));
                        }
                        return new Located(
                            t,
                            pkg,
                            r.getString("bundle"),
                            r.getString("digest"),
                            r.getString("validation"));
                      });
            });
  }

  private Future<List<TargetOrder.Facts>> facts(SqlClient conn, List<Located> located) {
    Future<List<TargetOrder.Facts>> out = Future.succeededFuture(new ArrayList<>());
    for (Located l : located) {
      out =
          out.compose(
              list ->
                  conn.preparedQuery(CONTENT)
                      .execute(Tuple.of(l.digest()))
                      .compose(
                          rows -> {
                            Row row = rows.iterator().next();
                            String mediaType = row.getString("media_type");
                            byte[] bytes = row.getBuffer("content").getBytes();
                            return vertx.executeBlocking(() -> facts(l, mediaType, bytes), false);
                          })
                      .map(
                          f -> {
                            list.add(f);
                            return list;
                          }));
    }
    return out;
  }

  /**
   * Blocking: the bundle's dependency facts from the parsed catalog (none when it no longer
   * parses).
   */
  private TargetOrder.Facts facts(Located l, String mediaType, byte[] bytes) {
    CatalogFormat format = CatalogFormat.ofContentType(mediaType).orElse(null);
    ValidationMode mode =
        "lenient".equals(l.validation()) ? ValidationMode.LENIENT : ValidationMode.STRICT;
    IngestResult result = format == null ? null : ingest.ingest(bytes, l.digest(), format, mode);
    if (result instanceof IngestResult.Accepted accepted) {
      for (CatalogPackage p : accepted.catalog().packages()) {
        for (Bundle b : p.name().equals(l.packageName()) ? p.bundles() : List.<Bundle>of()) {
          if (b.name().equals(l.bundle())) {
            return new TargetOrder.Facts(
                l.target().subscription(),
                l.packageName(),
                gvks(b.providedGvks()),
                b.requiredPackages().stream()
                    .map(PackageRequirement::packageName)
                    .collect(Collectors.toSet()),
                gvks(b.requiredGvks()));
          }
        }
      }
    }
    return new TargetOrder.Facts(
        l.target().subscription(), l.packageName(), Set.of(), Set.of(), Set.of());
  }

  private static Set<String> gvks(List<Gvk> gvks) {
    return gvks.stream()
        .map(g -> g.group() + "/" + g.version() + "/" + g.kind())
        .collect(Collectors.toSet());
  }
}
