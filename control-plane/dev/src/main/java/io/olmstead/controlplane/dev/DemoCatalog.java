package io.olmstead.controlplane.dev;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.catalog.CatalogFormat;
import io.olmstead.controlplane.catalog.CatalogIngest;
import io.olmstead.controlplane.catalog.CatalogStore;
import io.olmstead.controlplane.catalog.IngestResult;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo catalog of dev mode ({@code demo/catalog.yaml}: two tiny operators written for Olmstead,
 * a few versions, one dependency), loaded as catalog {@code demo} when it is not there yet, through
 * the same ingest (olm-core, STRICT, on a worker) and store as a REST upload.
 */
public final class DemoCatalog {
  public static final String NAME = "demo";
  public static final String RESOURCE = "/demo/catalog.yaml";
  private static final Logger LOG = LoggerFactory.getLogger(DemoCatalog.class);
  private static final String ACTOR = "system";

  private DemoCatalog() {}

  /** The catalog's bytes as packaged. */
  public static byte[] content() {
    try (InputStream in = DemoCatalog.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "the demo catalog " + RESOURCE + " is missing from the build");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Loads the demo catalog unless a catalog of that name already has a revision; true when it was
   * loaded now.
   */
  public static Future<Boolean> ensureLoaded(Vertx vertx, Pool pool) {
    Tx tx = new Tx(pool);
    CatalogStore store = new CatalogStore();
    return tx.read(conn -> store.get(conn, NAME))
        .compose(
            found -> {
              if (found.isPresent() && found.get().currentRevision() != null) {
                return Future.succeededFuture(false);
              }
              return vertx
                  .executeBlocking(
                      () ->
                          new CatalogIngest(ControlPlaneConfig.DEFAULT_MAX_BODY_BYTES)
                              .ingest(content(), CatalogFormat.YAML, ValidationMode.STRICT),
                      false)
                  .compose(
                      result ->
                          result instanceof IngestResult.Accepted accepted
                              ? store(tx, store, accepted)
                              : Future.failedFuture(
                                  new IllegalStateException(
                                      "the packaged demo catalog does not validate: " + result)))
                  .map(
                      revision -> {
                        LOG.info(
                            "demo catalog loaded as catalog '{}' revision {} (packages olmstead-demo-operator, "
                                + "olmstead-demo-db)",
                            NAME,
                            revision);
                        return true;
                      });
            });
  }

  private static Future<Integer> store(Tx tx, CatalogStore store, IngestResult.Accepted accepted) {
    AuditEntry entry =
        new AuditEntry(
            ACTOR,
            "catalog.revision.upload",
            "catalogs/" + NAME,
            AuditEntry.SUCCESS,
            new JsonObject()
                .put("digest", accepted.digest())
                .put("validation", "strict")
                .put("source", "dev demo"),
            null);
    return tx.audited(
        entry,
        conn ->
            store
                .lock(conn, NAME)
                .compose(
                    locked ->
                        locked.isPresent()
                            ? Future.succeededFuture(locked.get().currentRevision())
                            : store
                                .insert(conn, NAME, "Olmstead demo catalog", 0)
                                .map(v -> (Integer) null))
                .compose(
                    current -> {
                      int next = current == null ? 1 : current + 1;
                      return store
                          .insertRevision(
                              conn, NAME, next, accepted, "strict", new JsonArray(), ACTOR)
                          .map(next);
                    }),
        revision -> entry.detail().copy().put("revision", revision));
  }
}
