package io.olmstead.controlplane.catalog;

import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the query index of one catalog revision: packages with their channels, entries and
 * versions.
 */
public final class PackageQueries {
  private static final String PACKAGES =
      "SELECT package, default_channel, description FROM catalog_packages "
          + "WHERE catalog = $1 AND revision = $2 AND ($3::text IS NULL OR package > $3) "
          + "AND ($4::text IS NULL OR package = $4) ORDER BY package LIMIT $5";
  private static final String CHANNELS =
      "SELECT package, channel, head, entries FROM catalog_channels "
          + "WHERE catalog = $1 AND revision = $2 AND package = ANY($3) ORDER BY package, channel";
  // with the unpack state of the bundle's image once its digest is known (named by digest, or its
  // tag pinned)
  private static final String BUNDLES =
      "SELECT b.package, b.bundle, b.version, b.image, i.state "
          + "FROM catalog_bundles b LEFT JOIN bundle_images i ON i.digest = b.image_digest "
          + "WHERE b.catalog = $1 AND b.revision = $2 AND b.package = ANY($3)";

  /**
   * Packages of a revision ordered by name, after {@code afterName}; each as the API's Package
   * document.
   */
  public Future<List<JsonObject>> list(
      SqlClient client, String catalog, int revision, String afterName, int limit) {
    return load(client, catalog, revision, afterName, null, limit);
  }

  public Future<Optional<JsonObject>> get(
      SqlClient client, String catalog, int revision, String packageName) {
    return load(client, catalog, revision, null, packageName, 1)
        .map(list -> list.isEmpty() ? Optional.empty() : Optional.of(list.get(0)));
  }

  private Future<List<JsonObject>> load(
      SqlClient client, String catalog, int revision, String after, String only, int limit) {
    return client
        .preparedQuery(PACKAGES)
        .execute(Tuple.of(catalog, revision, after, only, limit))
        .compose(
            rows -> {
              Map<String, JsonObject> packages = new LinkedHashMap<>();
              for (Row row : rows) {
                packages.put(
                    row.getString(0),
                    new JsonObject()
                        .put("name", row.getString(0))
                        .put("defaultChannel", row.getString(1))
                        .put("description", row.getString(2)));
              }
              if (packages.isEmpty()) {
                return Future.succeededFuture(List.of());
              }
              String[] names = packages.keySet().toArray(new String[0]);
              Tuple args = Tuple.of(catalog, revision).addArrayOfString(names);
              return client
                  .preparedQuery(BUNDLES)
                  .execute(args)
                  .compose(
                      bundleRows -> {
                        Map<String, Map<String, String>> versions = new HashMap<>();
                        Map<String, JsonObject> images = new HashMap<>();
                        for (Row row : bundleRows) {
                          versions
                              .computeIfAbsent(row.getString(0), k -> new HashMap<>())
                              .put(row.getString(1), row.getString(2));
                          JsonObject image =
                              new JsonObject()
                                  .put("image", row.getString(3))
                                  .put("unpack", row.getString(4));
                          image.getMap().values().removeIf(x -> x == null);
                          images.put(row.getString(0) + "/" + row.getString(1), image);
                        }
                        return client
                            .preparedQuery(CHANNELS)
                            .execute(args)
                            .map(
                                channelRows -> {
                                  Map<String, JsonArray> channels = new HashMap<>();
                                  for (Row row : channelRows) {
                                    Map<String, String> v =
                                        versions.getOrDefault(row.getString(0), Map.of());
                                    channels
                                        .computeIfAbsent(row.getString(0), k -> new JsonArray())
                                        .add(
                                            new JsonObject()
                                                .put("name", row.getString(1))
                                                .put("head", row.getString(2))
                                                .put(
                                                    "entries",
                                                    withVersions(
                                                        (JsonArray) row.getValue(3),
                                                        v,
                                                        row.getString(0),
                                                        images)));
                                  }
                                  List<JsonObject> out = new ArrayList<>();
                                  packages.forEach(
                                      (name, json) -> {
                                        json.put(
                                            "channels",
                                            channels.getOrDefault(name, new JsonArray()));
                                        json.put(
                                            "versions",
                                            sortedVersions(
                                                versions.getOrDefault(name, Map.of()).values()));
                                        if (json.getString("description") == null) {
                                          json.remove("description");
                                        }
                                        out.add(json);
                                      });
                                  return out;
                                });
                      });
            });
  }

  private static JsonArray withVersions(
      JsonArray entries, Map<String, String> versions, String pkg, Map<String, JsonObject> images) {
    JsonArray out = new JsonArray();
    for (Object o : entries) {
      JsonObject e = ((JsonObject) o).copy();
      String version = versions.get(e.getString("name"));
      if (version != null) {
        e.put("version", version);
      }
      e.mergeIn(images.getOrDefault(pkg + "/" + e.getString("name"), new JsonObject()));
      out.add(e);
    }
    return out;
  }

  /** Distinct versions, highest first by semver precedence; unparsable ones last, by text. */
  static JsonArray sortedVersions(Collection<String> versions) {
    Comparator<String> bySemver =
        (a, b) -> {
          Optional<Version> va = Version.tryParse(a);
          Optional<Version> vb = Version.tryParse(b);
          if (va.isPresent() && vb.isPresent()) {
            return vb.get().compareTo(va.get());
          }
          return va.isPresent() ? -1 : vb.isPresent() ? 1 : a.compareTo(b);
        };
    return new JsonArray(
        versions.stream()
            .filter(v -> v != null && !v.isEmpty())
            .distinct()
            .sorted(bySemver)
            .map(Object.class::cast)
            .toList());
  }
}
