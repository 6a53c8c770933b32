package io.olmstead.controlplane.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.olmstead.olmcore.fbc.Channel;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.fbc.ChannelGraph;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * olm-core channel graphs of stored revisions, rebuilt from the query index (entries + bundle
 * versions hold all a graph needs, so the catalog content is never re-parsed) and kept in a small
 * Caffeine cache keyed by content digest: a digest's graphs never change.
 */
public final class ChannelGraphs {
  private static final String CHANNEL =
      "SELECT ch.entries FROM catalog_channels ch "
          + "JOIN catalog_revisions r ON r.catalog = ch.catalog AND r.revision = ch.revision "
          + "WHERE ch.catalog = $1 AND ch.revision = $2 AND ch.package = $3 AND ch.channel = $4";
  private static final String VERSIONS =
      "SELECT b.bundle, b.version FROM catalog_bundles b "
          + "WHERE b.catalog = $1 AND b.revision = $2 AND b.package = $3 AND $4 = ANY(b.channels)";

  private final Cache<String, ChannelGraph> cache;

  public ChannelGraphs(int capacity) {
    this.cache = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
  }

  /**
   * The graph of a channel of a catalog revision with the given digest; empty when there is no such
   * channel.
   */
  public Future<Optional<ChannelGraph>> graph(
      SqlClient client,
      String catalog,
      int revision,
      String digest,
      String packageName,
      String channel) {
    String key = digest + "\n" + packageName + "\n" + channel;
    ChannelGraph cached = cache.getIfPresent(key);
    if (cached != null) {
      return Future.succeededFuture(Optional.of(cached));
    }
    Tuple args = Tuple.of(catalog, revision, packageName, channel);
    return client
        .preparedQuery(CHANNEL)
        .execute(args)
        .compose(
            rows -> {
              Optional<Row> row = CatalogStore.first(rows);
              if (row.isEmpty()) {
                return Future.succeededFuture(Optional.<ChannelGraph>empty());
              }
              JsonArray entries = (JsonArray) row.get().getValue(0);
              return client
                  .preparedQuery(VERSIONS)
                  .execute(args)
                  .map(
                      versionRows -> {
                        Map<String, Version> versions = new HashMap<>();
                        for (Row v : versionRows) {
                          Version.tryParse(v.getString(1))
                              .ifPresent(version -> versions.put(v.getString(0), version));
                        }
                        ChannelGraph graph =
                            ChannelGraph.of(
                                new Channel(packageName, channel, toEntries(entries)), versions);
                        cache.put(key, graph);
                        return Optional.of(graph);
                      });
            });
  }

  static List<ChannelEntry> toEntries(JsonArray entries) {
    List<ChannelEntry> out = new ArrayList<>(entries.size());
    for (Object o : entries) {
      JsonObject e = (JsonObject) o;
      JsonArray skips = e.getJsonArray("skips", new JsonArray());
      List<String> skipList = new ArrayList<>(skips.size());
      skips.forEach(s -> skipList.add(String.valueOf(s)));
      out.add(
          new ChannelEntry(
              e.getString("name"), e.getString("replaces"), skipList, e.getString("skipRange")));
    }
    return out;
  }
}
