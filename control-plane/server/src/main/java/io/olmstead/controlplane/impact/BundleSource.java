package io.olmstead.controlplane.impact;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.controlplane.catalog.CatalogFormat;
import io.olmstead.controlplane.catalog.CatalogIngest;
import io.olmstead.controlplane.catalog.IngestResult;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The objects of a package's bundles in a catalog's current revision, by version, as the agent
 * would install them (I/O): from the bundle's unpacked image ({@code bundle_images}) when it has
 * one, else from the catalog content's {@code olm.bundle.object}s (one parse of the content per
 * request, on a worker). Decoded bundles are kept in a small LRU keyed by content or image digest:
 * a digest's objects never change.
 */
public final class BundleSource {
  private static final String BUNDLES =
      "SELECT DISTINCT ON (b.version) b.bundle, b.version, b.embedded, "
          + "b.image_digest, b.max_openshift_version, i.state, r.digest AS content_digest, r.validation "
          + "FROM catalog_bundles b JOIN catalogs c ON c.name = b.catalog AND c.current_revision = b.revision "
          + "JOIN catalog_revisions r ON r.catalog = b.catalog AND r.revision = b.revision "
          + "LEFT JOIN bundle_images i ON i.digest = b.image_digest "
          + "WHERE b.catalog = $1 AND b.package = $2 AND b.version = ANY($3) ORDER BY b.version, b.bundle";
  private static final String IMAGE_OBJECTS =
      "SELECT objects_gz FROM bundle_images " + "WHERE digest = $1 AND state = 'Unpacked'";
  private static final String CONTENT =
      "SELECT media_type, content FROM catalog_contents WHERE digest = $1";

  private final Vertx vertx;
  private final CatalogIngest ingest;
  private final Map<String, BundleManifests> cache =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, BundleManifests> eldest) {
          return size() > 16;
        }
      };

  /**
   * {@code maxBodyBytes}: the limit catalogs were uploaded under (their content is parsed again).
   */
  public BundleSource(Vertx vertx, long maxBodyBytes) {
    this.vertx = vertx;
    this.ingest = new CatalogIngest(maxBodyBytes);
  }

  /** A bundle row: where its objects are. */
  private record Located(
      String bundle,
      String version,
      Boolean embedded,
      String imageDigest,
      String max,
      String imageState,
      String contentDigest,
      String validation) {
    boolean fromImage() {
      return imageDigest != null && "Unpacked".equals(imageState) && !Boolean.TRUE.equals(embedded);
    }

    String key(String pkg) {
      return (fromImage() ? imageDigest : contentDigest) + "/" + pkg + "/" + bundle;
    }
  }

  /**
   * The bundles of {@code versions} found (a version with no bundle in the revision is absent from
   * the answer).
   */
  public Future<Map<String, BundleManifests>> byVersion(
      SqlClient client, String catalog, String pkg, Collection<String> versions) {
    return client
        .preparedQuery(BUNDLES)
        .execute(Tuple.of(catalog, pkg, versions.toArray(String[]::new)))
        .compose(
            rows -> {
              List<Located> found = new ArrayList<>();
              for (Row r : rows) {
                found.add(
                    new Located(
                        r.getString("bundle"),
                        r.getString("version"),
                        r.getBoolean("embedded"),
                        r.getString("image_digest"),
                        r.getString("max_openshift_version"),
                        r.getString("state"),
                        r.getString("content_digest"),
                        r.getString("validation")));
              }
              Map<String, BundleManifests> out = new HashMap<>();
              List<Located> fromContent = new ArrayList<>();
              Future<Void> images = Future.succeededFuture();
              for (Located l : found) {
                BundleManifests cached = cached(l.key(pkg));
                if (cached != null) {
                  out.put(l.version(), cached);
                } else if (l.fromImage()) {
                  images =
                      images.compose(
                          v ->
                              image(client, pkg, l)
                                  .map(
                                      m -> {
                                        out.put(l.version(), m);
                                        return null;
                                      }));
                } else if (Boolean.FALSE.equals(l.embedded())) {
                  out.put(
                      l.version(),
                      BundleManifests.unavailable(
                          l.bundle(),
                          l.version(),
                          l.max(),
                          "the bundle image of "
                              + l.bundle()
                              + " is not unpacked yet ("
                              + (l.imageState() == null ? "not requested" : l.imageState())
                              + ")"));
                } else {
                  fromContent.add(l);
                }
              }
              return images
                  .compose(
                      v ->
                          fromContent.isEmpty()
                              ? Future.succeededFuture()
                              : content(client, pkg, fromContent)
                                  .map(
                                      m -> {
                                        out.putAll(m);
                                        return null;
                                      }))
                  .map(v -> out);
            });
  }

  private BundleManifests cached(String key) {
    synchronized (cache) {
      return cache.get(key);
    }
  }

  private BundleManifests remember(String key, BundleManifests m) {
    synchronized (cache) {
      cache.put(key, m);
    }
    return m;
  }

  private Future<BundleManifests> image(SqlClient client, String pkg, Located l) {
    return client
        .preparedQuery(IMAGE_OBJECTS)
        .execute(Tuple.of(l.imageDigest()))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(
                    BundleManifests.unavailable(
                        l.bundle(),
                        l.version(),
                        l.max(),
                        "the bundle image of " + l.bundle() + " is not unpacked yet"));
              }
              byte[] gz = rows.iterator().next().getBuffer(0).getBytes();
              return vertx.executeBlocking(
                  () ->
                      remember(
                          l.key(pkg),
                          BundleManifests.of(
                              l.bundle(), l.version(), l.max(), imageManifests(l.bundle(), gz))),
                  false);
            });
  }

  /**
   * The manifests of an unpacked image's {@code {"objects":[{"data": base64}]}}, gzipped;
   * undecodable ones skipped.
   */
  static List<JsonNode> imageManifests(String bundle, byte[] gz) {
    byte[] json;
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      json = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<JsonNode> out = new ArrayList<>();
    for (Object o :
        new JsonObject(new String(json, StandardCharsets.UTF_8))
            .getJsonArray("objects", new JsonArray())) {
      try {
        out.add(new BundleObject(bundle, ((JsonObject) o).getString("data")).manifest());
      } catch (RuntimeException | FbcException e) {
        // the agent refuses such a bundle; the report compares what decodes
      }
    }
    return out;
  }

  private Future<Map<String, BundleManifests>> content(
      SqlClient client, String pkg, List<Located> wanted) {
    String digest = wanted.get(0).contentDigest();
    return client
        .preparedQuery(CONTENT)
        .execute(Tuple.of(digest))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(Map.of());
              }
              Row row = rows.iterator().next();
              String mediaType = row.getString("media_type");
              byte[] bytes = row.getBuffer("content").getBytes();
              return vertx.executeBlocking(
                  () -> parse(pkg, wanted, digest, mediaType, bytes), false);
            });
  }

  /** Blocking: parses the content once and reads the wanted bundles' objects. */
  private Map<String, BundleManifests> parse(
      String pkg, List<Located> wanted, String digest, String mediaType, byte[] bytes) {
    Map<String, BundleManifests> out = new HashMap<>();
    CatalogFormat format = CatalogFormat.ofContentType(mediaType).orElse(null);
    ValidationMode mode =
        "lenient".equals(wanted.get(0).validation())
            ? ValidationMode.LENIENT
            : ValidationMode.STRICT;
    IngestResult result = format == null ? null : ingest.ingest(bytes, digest, format, mode);
    Map<String, Bundle> bundles = new HashMap<>();
    if (result instanceof IngestResult.Accepted accepted) {
      for (CatalogPackage p : accepted.catalog().packages()) {
        if (p.name().equals(pkg)) {
          p.bundles().forEach(b -> bundles.put(b.name(), b));
        }
      }
    }
    for (Located l : wanted) {
      Bundle b = bundles.get(l.bundle());
      if (b == null || b.objects().isEmpty()) {
        out.put(
            l.version(),
            BundleManifests.unavailable(
                l.bundle(),
                l.version(),
                l.max(),
                "the catalog carries no "
                    + "objects of "
                    + l.bundle()
                    + " and it names no unpacked image"));
        continue;
      }
      List<JsonNode> manifests = new ArrayList<>();
      for (BundleObject o : b.objects()) {
        try {
          manifests.add(o.manifest());
        } catch (RuntimeException | FbcException e) {
          // compared as far as it decodes
        }
      }
      out.put(
          l.version(),
          remember(l.key(pkg), BundleManifests.of(l.bundle(), l.version(), l.max(), manifests)));
    }
    return out;
  }
}
