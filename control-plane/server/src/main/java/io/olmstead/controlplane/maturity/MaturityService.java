package io.olmstead.controlplane.maturity;

import io.olmstead.controlplane.catalog.CatalogFormat;
import io.olmstead.controlplane.catalog.CatalogIngest;
import io.olmstead.controlplane.catalog.IngestResult;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.olmstead.olmcore.maturity.MaturityAnalyzer;
import io.olmstead.olmcore.maturity.MaturityDiff;
import io.olmstead.olmcore.maturity.MaturityReport;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maturity reports of catalog bundles. On the first request for a catalog content digest, every
 * bundle of that content is analysed at once on a worker (one parse) and stored; later requests
 * read the stored report. Catalogs are shared, so reports are readable by every team.
 */
public final class MaturityService {
  private final Vertx vertx;
  private final Tx tx;
  private final CatalogIngest ingest;
  private final MaturityStore store = new MaturityStore();
  private final MaturityAnalyzer analyzer = new MaturityAnalyzer();
  private final ImageReports images;

  /** Computations under way by digest: concurrent first requests share one parse. */
  private final Map<String, Future<Map<String, JsonObject>>> computing = new HashMap<>();

  public MaturityService(Vertx vertx, Tx tx, long maxBodyBytes) {
    this.vertx = vertx;
    this.tx = tx;
    this.ingest = new CatalogIngest(maxBodyBytes);
    this.images = new ImageReports(vertx, tx, store);
  }

  public Future<Reply> report(String catalog, String pkg, String bundle) {
    return load(catalog, pkg, bundle).map(r -> Reply.ok(r.copy().put("catalog", catalog)));
  }

  public Future<Reply> diff(String catalog, String pkg, String from, String to) {
    Future<JsonObject> a = load(catalog, pkg, from);
    Future<JsonObject> b = load(catalog, pkg, to);
    return Future.all(a, b)
        .map(
            all ->
                Reply.ok(
                    MaturityJson.diff(
                        MaturityDiff.of(asReport(a.result()), asReport(b.result())))));
  }

  /**
   * One page of the catalog-wide summary: per package (by name) the head bundle of each channel
   * with its findings counted. The reports of the catalog's content are computed first when none is
   * stored yet (one parse, on a worker, shared with concurrent requests).
   */
  public Future<Reply> summary(String catalog, int limit, String cursor) {
    String after = cursor == null ? null : Cursors.decode(cursor, 1).getString(0);
    return tx.read(
            conn ->
                store
                    .current(conn, catalog)
                    .compose(
                        found -> {
                          MaturityStore.Current cur =
                              found.orElseThrow(
                                  () ->
                                      ApiException.notFound(
                                          "catalog "
                                              + catalog
                                              + " does not exist or has no revision yet"));
                          return store
                              .hasReports(conn, cur.digest())
                              .map(has -> new Loaded(cur, has ? new JsonObject() : null, null));
                        }))
        .compose(
            l ->
                (l.report != null ? Future.succeededFuture() : compute(l.current).mapEmpty())
                    .compose(
                        x ->
                            tx.read(
                                conn ->
                                    store
                                        .packages(
                                            conn, catalog, l.current.revision(), after, limit + 1)
                                        .compose(
                                            names ->
                                                store
                                                    .heads(conn, catalog, l.current, names)
                                                    .map(heads -> new Page(names, heads)))))
                    .compose(
                        page ->
                            imageHeads(catalog, l.current, page.heads())
                                .map(heads -> MaturitySummary.items(page.names(), heads))))
        .map(
            items ->
                Reply.ok(
                    Cursors.page(
                            items, limit, i -> i, i -> new JsonArray().add(i.getString("package")))
                        .put("catalog", catalog)));
  }

  private record Page(List<String> names, List<MaturitySummary.Head> heads) {}

  /**
   * The heads with the reports of their unpacked images, made one after the other where not stored
   * yet.
   */
  private Future<List<MaturitySummary.Head>> imageHeads(
      String catalog, MaturityStore.Current cur, List<MaturitySummary.Head> heads) {
    Future<List<MaturitySummary.Head>> out = Future.succeededFuture(new ArrayList<>());
    Map<String, JsonObject> made = new HashMap<>();
    for (MaturitySummary.Head h : heads) {
      String key = h.pkg() + "/" + h.bundle();
      out =
          out.compose(
              list ->
                  (!ImageReports.stale(h.report(), h.image())
                          ? Future.succeededFuture(h)
                          : made.containsKey(key)
                              ? Future.succeededFuture(h.withReport(made.get(key)))
                              : images
                                  .report(catalog, cur, h.pkg(), h.bundle(), h.image())
                                  .map(
                                      r -> {
                                        made.put(key, r);
                                        return h.withReport(r);
                                      }))
                      .map(
                          done -> {
                            list.add(done);
                            return list;
                          }));
    }
    return out;
  }

  /**
   * The diff as the API's JSON ({@code from}, {@code to}, {@code introduced}, {@code resolved}),
   * for other views.
   */
  public Future<JsonObject> diffJson(String catalog, String pkg, String from, String to) {
    return diff(catalog, pkg, from, to).map(Reply::body);
  }

  /**
   * The stored report (computed on first use) as JSON; fails with 404 when the bundle is not in the
   * catalog.
   */
  public Future<JsonObject> stored(String catalog, String pkg, String bundle) {
    return load(catalog, pkg, bundle);
  }

  private static MaturityReport asReport(JsonObject stored) {
    return new MaturityReport(
        stored.getString("bundle"),
        MaturityJson.findings(stored),
        Map.of(),
        null,
        null,
        List.of(),
        0);
  }

  private Future<JsonObject> load(String catalog, String pkg, String bundle) {
    return tx.read(
            conn ->
                store
                    .current(conn, catalog)
                    .compose(
                        found -> {
                          MaturityStore.Current cur =
                              found.orElseThrow(
                                  () ->
                                      ApiException.notFound(
                                          "catalog "
                                              + catalog
                                              + " does not exist or has no revision yet"));
                          return store
                              .bundle(conn, catalog, cur.revision(), pkg, bundle)
                              .compose(
                                  row -> {
                                    if (!row.exists()) {
                                      return Future.failedFuture(
                                          ApiException.notFound(
                                              "bundle "
                                                  + bundle
                                                  + " is not in package "
                                                  + pkg
                                                  + " of catalog "
                                                  + catalog));
                                    }
                                    return store
                                        .report(conn, cur.digest(), pkg, bundle)
                                        .map(
                                            r ->
                                                new Loaded(
                                                    cur, r.orElse(null), row.unpackedImage()));
                                  });
                        }))
        .compose(
            l -> {
              if (ImageReports.stale(l.report, l.image)) {
                return images.report(catalog, l.current, pkg, bundle, l.image);
              }
              return l.report != null
                  ? Future.succeededFuture(l.report)
                  : compute(l.current)
                      .map(
                          all -> {
                            JsonObject r = all.get(pkg + "/" + bundle);
                            if (r == null) {
                              throw ApiException.notFound(
                                  "bundle "
                                      + bundle
                                      + " is not in package "
                                      + pkg
                                      + " of catalog "
                                      + catalog);
                            }
                            return r;
                          });
            });
  }

  private Future<Map<String, JsonObject>> compute(MaturityStore.Current cur) {
    String digest = cur.digest();
    Future<Map<String, JsonObject>> run;
    synchronized (computing) {
      Future<Map<String, JsonObject>> inFlight = computing.get(digest);
      if (inFlight != null) {
        return inFlight;
      }
      run =
          tx.read(conn -> store.content(conn, digest))
              .compose(
                  content ->
                      vertx.executeBlocking(
                          () ->
                              analyzeAll(
                                  cur,
                                  content.orElseThrow(
                                      () ->
                                          new IllegalStateException(
                                              "content " + digest + " is missing"))),
                          false))
              .compose(
                  reports ->
                      tx.inTransaction(
                              conn -> store.insert(conn, digest, new ArrayList<>(reports.values())))
                          .map(reports));
      computing.put(digest, run);
    }
    return run.andThen(
        ar -> {
          synchronized (computing) {
            computing.remove(digest);
          }
        });
  }

  /**
   * Parses the content (accepted at upload, so it parses again) and reports every bundle; blocking.
   */
  private Map<String, JsonObject> analyzeAll(
      MaturityStore.Current cur, MaturityStore.Content content) {
    CatalogFormat format =
        CatalogFormat.ofContentType(content.mediaType())
            .orElseThrow(
                () -> new IllegalStateException("unknown media type " + content.mediaType()));
    ValidationMode mode =
        "lenient".equals(cur.validation()) ? ValidationMode.LENIENT : ValidationMode.STRICT;
    IngestResult result = ingest.ingest(content.bytes(), cur.digest(), format, mode);
    if (!(result instanceof IngestResult.Accepted accepted)) {
      throw new IllegalStateException("stored content " + cur.digest() + " no longer parses");
    }
    Map<String, JsonObject> out = new HashMap<>();
    for (CatalogPackage p : accepted.catalog().packages()) {
      for (Bundle b : p.bundles()) {
        out.put(
            p.name() + "/" + b.name(),
            MaturityJson.report(p.name(), cur.digest(), analyzer.analyze(b, p)));
      }
    }
    return out;
  }

  private record Loaded(MaturityStore.Current current, JsonObject report, String image) {}
}
