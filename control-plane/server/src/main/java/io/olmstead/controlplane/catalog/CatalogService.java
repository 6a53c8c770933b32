package io.olmstead.controlplane.catalog;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.ETags;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import java.util.Optional;

/**
 * Catalog resources: create/update/delete with optimistic locking and audit, reads, revisions,
 * packages, paths.
 */
public final class CatalogService {
  private final Tx tx;
  private final RegistrySettings registries;
  private final CatalogStore store = new CatalogStore();
  private final PackageQueries packages = new PackageQueries();
  private final ChannelGraphs graphs = new ChannelGraphs(256);

  public CatalogService(Tx tx, RegistrySettings registries) {
    this.tx = tx;
    this.registries = registries;
  }

  public CatalogStore store() {
    return store;
  }

  public Future<Reply> list(int limit, String cursor) {
    String after = cursor == null ? null : Cursors.decode(cursor, 1).getString(0);
    return tx.read(conn -> store.list(conn, after, limit + 1))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows, limit, CatalogRecord::toJson, c -> new JsonArray().add(c.name()))));
  }

  public Future<Reply> get(String name) {
    return tx.read(conn -> store.get(conn, name))
        .map(
            found -> {
              CatalogRecord catalog = found.orElseThrow(() -> notFound(name));
              return Reply.ok(catalog.toJson()).withEtag(catalog.resourceVersion());
            });
  }

  /**
   * PUT: creates (201) or replaces displayName and priority (200); If-Match against the resource
   * version.
   */
  public Future<Reply> put(
      Principal principal,
      String requestId,
      String name,
      JsonObject body,
      Optional<String> ifMatch) {
    String displayName = body.getString("displayName");
    int priority = body.getInteger("priority", 0);
    JsonObject source = body.getJsonObject("source");
    CatalogSourceState.validate(source, registries);
    AuditEntry entry =
        new AuditEntry(
            principal.actor(),
            "catalog.put",
            "catalogs/" + name,
            AuditEntry.SUCCESS,
            new JsonObject()
                .put("displayName", displayName)
                .put("priority", priority)
                .put("source", source),
            requestId);
    return tx.audited(
            entry,
            conn ->
                store
                    .lock(conn, name)
                    .compose(
                        locked -> {
                          if (locked.isEmpty()) {
                            ETags.checkMissing(ifMatch, "catalog " + name);
                            return store
                                .insert(conn, name, displayName, priority)
                                .compose(v -> CatalogSourceState.store(conn, name, source))
                                .map(true);
                          }
                          ETags.check(ifMatch, locked.get().resourceVersion());
                          return store
                              .update(conn, name, displayName, priority)
                              .compose(v -> CatalogSourceState.store(conn, name, source))
                              .map(false);
                        })
                    .compose(
                        created ->
                            store.get(conn, name).map(c -> new Put(created, c.orElseThrow()))),
            null)
        .map(
            put ->
                (put.created ? Reply.created(put.catalog.toJson()) : Reply.ok(put.catalog.toJson()))
                    .withEtag(put.catalog.resourceVersion()));
  }

  /**
   * DELETE: refused with 409 while a subscription uses the catalog; removes revisions and unshared
   * content.
   */
  public Future<Reply> delete(
      Principal principal, String requestId, String name, Optional<String> ifMatch) {
    AuditEntry entry =
        new AuditEntry(
            principal.actor(),
            "catalog.delete",
            "catalogs/" + name,
            AuditEntry.SUCCESS,
            null,
            requestId);
    return tx.audited(
            entry,
            conn ->
                store
                    .lock(conn, name)
                    .compose(
                        locked -> {
                          if (locked.isEmpty()) {
                            return Future.failedFuture(notFound(name));
                          }
                          ETags.check(ifMatch, locked.get().resourceVersion());
                          return store
                              .usedBy(conn, name)
                              .compose(
                                  users ->
                                      users.isEmpty()
                                          ? store.delete(conn, name)
                                          : Future.failedFuture(
                                              ApiException.conflict(
                                                  "catalog "
                                                      + name
                                                      + " is used by subscription(s) "
                                                      + String.join(", ", users)
                                                      + "; delete or move them first")));
                        }),
            null)
        .map(v -> Reply.noContent());
  }

  public Future<Reply> revisions(String name, int limit, String cursor) {
    Integer before = cursor == null ? null : Cursors.decode(cursor, 1).getInteger(0);
    return tx.read(
        conn ->
            requireCatalog(conn, name)
                .compose(
                    catalog ->
                        store
                            .revisions(conn, name, before, limit + 1)
                            .map(
                                rows ->
                                    Reply.ok(
                                        Cursors.page(
                                            rows,
                                            limit,
                                            r -> revisionJson(r, catalog),
                                            r -> new JsonArray().add(r.revision()))))));
  }

  public Future<Reply> packages(String name, int limit, String cursor) {
    String after = cursor == null ? null : Cursors.decode(cursor, 1).getString(0);
    return tx.read(
            conn ->
                requireRevision(conn, name)
                    .compose(
                        catalog ->
                            packages.list(conn, name, catalog.currentRevision(), after, limit + 1)))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows, limit, p -> p, p -> new JsonArray().add(p.getString("name")))));
  }

  public Future<Reply> pkg(String name, String packageName) {
    return tx.read(
            conn ->
                requireRevision(conn, name)
                    .compose(
                        catalog ->
                            packages.get(conn, name, catalog.currentRevision(), packageName)))
        .map(
            found ->
                Reply.ok(
                    found.orElseThrow(
                        () ->
                            ApiException.notFound(
                                "package " + packageName + " is not in catalog " + name))));
  }

  public Future<Reply> upgradePath(
      String name, String packageName, String channel, String from, String to) {
    return tx.read(
            conn ->
                requireRevision(conn, name)
                    .compose(
                        catalog ->
                            packages
                                .get(conn, name, catalog.currentRevision(), packageName)
                                .compose(
                                    pkg -> {
                                      if (pkg.isEmpty()) {
                                        return Future.failedFuture(
                                            ApiException.notFound(
                                                "package "
                                                    + packageName
                                                    + " is not in catalog "
                                                    + name));
                                      }
                                      return graphs.graph(
                                          conn,
                                          name,
                                          catalog.currentRevision(),
                                          catalog.currentDigest(),
                                          packageName,
                                          channel);
                                    })))
        .map(
            graph -> {
              try {
                return Reply.ok(
                    UpgradePaths.compute(
                        graph.orElseThrow(
                            () ->
                                ApiException.notFound(
                                    "channel " + channel + " is not in package " + packageName)),
                        from,
                        to));
              } catch (UpgradePaths.PathException e) {
                throw e.notFound()
                    ? ApiException.notFound(e.getMessage())
                    : ApiException.badRequest(e.getMessage(), "query.to");
              }
            });
  }

  static JsonObject revisionJson(RevisionRecord revision, CatalogRecord catalog) {
    return revision
        .toJson()
        .put(
            "current",
            catalog.currentRevision() != null && catalog.currentRevision() == revision.revision());
  }

  Future<CatalogRecord> requireCatalog(SqlClient conn, String name) {
    return store.get(conn, name).map(found -> found.orElseThrow(() -> notFound(name)));
  }

  private Future<CatalogRecord> requireRevision(SqlClient conn, String name) {
    return requireCatalog(conn, name)
        .map(
            catalog -> {
              if (catalog.currentRevision() == null) {
                throw ApiException.notFound(
                    "catalog " + name + " has no revision yet; upload one first");
              }
              return catalog;
            });
  }

  static ApiException notFound(String name) {
    return ApiException.notFound("catalog " + name + " does not exist");
  }

  private record Put(boolean created, CatalogRecord catalog) {}
}
