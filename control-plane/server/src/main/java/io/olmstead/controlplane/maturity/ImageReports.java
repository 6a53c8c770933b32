package io.olmstead.controlplane.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.maturity.BundleView;
import io.olmstead.olmcore.maturity.MaturityAnalyzer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reports of bundles that a catalog names only by image, once the image is unpacked: the rules read
 * the image's objects (the catalog has none to give), so a metadata-only report is replaced by one
 * checking every object rule. Stored in place of the catalog report (same key: content digest,
 * package, bundle) with the image digest in it, so it is made once per content digest and image;
 * made on a worker (gunzip and decode).
 */
final class ImageReports {
  private final Vertx vertx;
  private final Tx tx;
  private final MaturityStore store;
  private final MaturityAnalyzer analyzer = new MaturityAnalyzer();

  /** Computations under way by digest/package/bundle: concurrent requests share one. */
  private final Map<String, Future<JsonObject>> computing = new HashMap<>();

  ImageReports(Vertx vertx, Tx tx, MaturityStore store) {
    this.vertx = vertx;
    this.tx = tx;
    this.store = store;
  }

  /**
   * True when {@code stored} (may be null) is not yet the report of the unpacked image {@code
   * imageDigest}.
   */
  static boolean stale(JsonObject stored, String imageDigest) {
    return imageDigest != null
        && (stored == null || !imageDigest.equals(stored.getString("imageDigest")));
  }

  /** The report of {@code bundle} from the objects of its unpacked image, stored. */
  Future<JsonObject> report(
      String catalog, MaturityStore.Current cur, String pkg, String bundle, String imageDigest) {
    String key = cur.digest() + "/" + pkg + "/" + bundle;
    Future<JsonObject> run;
    synchronized (computing) {
      Future<JsonObject> inFlight = computing.get(key);
      if (inFlight != null) {
        return inFlight;
      }
      run =
          tx.read(
                  conn ->
                      store
                          .imageObjects(conn, imageDigest)
                          .compose(
                              gz ->
                                  store
                                      .channelEntries(conn, catalog, cur.revision(), pkg)
                                      .map(entries -> new Input(gz, entries))))
              .compose(
                  in ->
                      vertx.executeBlocking(
                          () ->
                              MaturityJson.report(
                                      pkg,
                                      cur.digest(),
                                      analyzer.analyze(
                                          view(bundle, gunzip(in.objectsGz()), in.entries())))
                                  .put("imageDigest", imageDigest),
                          false))
              .compose(r -> tx.inTransaction(conn -> store.upsert(conn, cur.digest(), r)).map(r));
      computing.put(key, run);
    }
    return run.andThen(
        ar -> {
          synchronized (computing) {
            computing.remove(key);
          }
        });
  }

  private record Input(byte[] objectsGz, List<JsonObject> entries) {}

  /**
   * The rules' view of an unpacked image ({@code {"objects":[{"data": base64}]}}); {@code entries}
   * are the channel entries of the package ({@code [{name, replaces, skips, skipRange}]} per
   * channel) for the upgrade-edge evidence.
   */
  static BundleView view(String bundle, byte[] objectsJson, List<JsonObject> entries) {
    List<JsonNode> manifests = new ArrayList<>();
    List<String> bad = new ArrayList<>();
    for (Object o :
        new JsonObject(new String(objectsJson, StandardCharsets.UTF_8))
            .getJsonArray("objects", new JsonArray())) {
      try {
        manifests.add(new BundleObject(bundle, ((JsonObject) o).getString("data")).manifest());
      } catch (FbcException | RuntimeException e) {
        bad.add(String.valueOf(e.getMessage()));
      }
    }
    return BundleView.of(bundle, manifests, null, List.of(), upgradeEdge(bundle, entries), bad);
  }

  /** True when a channel holding the bundle has any upgrade edge (replaces, skips or skipRange). */
  static boolean upgradeEdge(String bundle, List<JsonObject> channels) {
    for (JsonObject channel : channels) {
      boolean holds = false;
      boolean edge = false;
      for (Object o : channel.getJsonArray("entries", new JsonArray())) {
        JsonObject e = (JsonObject) o;
        holds |= bundle.equals(e.getString("name"));
        edge |=
            e.getString("replaces") != null
                || !e.getJsonArray("skips", new JsonArray()).isEmpty()
                || e.getString("skipRange") != null;
      }
      if (holds && edge) {
        return true;
      }
    }
    return false;
  }

  static byte[] gunzip(byte[] gz) {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
