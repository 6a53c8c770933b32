package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.maturity.MaturityService;
import io.olmstead.controlplane.subscription.CatalogView;
import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.CatalogView.PackageView;
import io.olmstead.controlplane.subscription.DesiredState;
import io.olmstead.controlplane.subscription.DesiredState.Approval;
import io.olmstead.controlplane.subscription.HoldReports;
import io.olmstead.controlplane.subscription.Subscription;
import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.olmstead.controlplane.subscription.SubscriptionSpec.Placement;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads what desired-state computation needs: every subscription, the current revision of each
 * catalog (as a {@link CatalogView}) and the labels of the clusters to compute for. Read-only; the
 * computation stays pure.
 */
final class FleetLoader {
  private static final String SUBSCRIPTIONS =
      "SELECT name, catalog, package, channel, namespace, target_namespaces, placement_selector, placement_clusters, "
          // agents are told the applied policy while a rollout moves the fleet to the declared one
          // (V46)
          + "COALESCE(applied_version_kind, version_kind) AS version_kind, CASE WHEN applied_version_kind IS NULL "
          + "THEN version_value ELSE applied_version_value END AS version_value, approval, config, team, crd_removal, "
          + "crd_upgrade_safety, install_mode, generation, resource_version, created_by, requirements FROM subscriptions";
  private static final String CURRENT_REVISIONS =
      "SELECT c.name, c.current_revision, r.digest FROM catalogs c "
          + "JOIN catalog_revisions r ON r.catalog = c.name AND r.revision = c.current_revision";
  private static final String PACKAGES =
      "SELECT p.catalog, p.package, p.default_channel FROM catalog_packages p "
          + "JOIN catalogs c ON c.name = p.catalog AND c.current_revision = p.revision WHERE p.usable";
  private static final String CHANNELS =
      "SELECT ch.catalog, ch.package, ch.channel, ch.head FROM catalog_channels ch "
          + "JOIN catalogs c ON c.name = ch.catalog AND c.current_revision = ch.revision";
  private static final String BUNDLES =
      "SELECT b.catalog, b.package, b.bundle, b.version, b.channels FROM catalog_bundles b "
          + "JOIN catalogs c ON c.name = b.catalog AND c.current_revision = b.revision WHERE b.version IS NOT NULL";
  private static final String LABELS = "SELECT name, labels FROM clusters WHERE name = ANY($1)";
  private static final String KUBE =
      "SELECT name, kubernetes_version FROM clusters WHERE name = ANY($1) "
          + "AND kubernetes_version IS NOT NULL";
  private static final String APPROVALS =
      "SELECT cluster, subscription, version, withheld FROM rollout_approvals WHERE cluster = ANY($1)";

  private final Pool pool;
  private final HoldReports reports;

  /**
   * {@code reports}: the maturity reports subscriptions are held by (null: none, every bundle
   * unchecked).
   */
  FleetLoader(Pool pool, HoldReports reports) {
    this.pool = pool;
    this.reports = reports;
  }

  FleetLoader(Pool pool) {
    this(pool, null);
  }

  /**
   * A loader whose snapshots carry the maturity reports holds decide on ({@code maxBodyBytes}: the
   * upload limit).
   */
  static FleetLoader withHolds(Vertx vertx, Pool pool, long maxBodyBytes) {
    return new FleetLoader(
        pool, new HoldReports(new MaturityService(vertx, new Tx(pool), maxBodyBytes)));
  }

  /** The pool the loader reads from (other per-cluster reads of a publish run use it too). */
  Pool pool() {
    return pool;
  }

  /**
   * Subscriptions, catalogs and their maturity reports at one moment; computing a cluster's desired
   * state needs only this, its labels and its Kubernetes version.
   */
  record Snapshot(
      List<Subscription> subscriptions,
      Map<String, CatalogView> catalogs,
      DesiredState.Reports reports) {}

  Future<Snapshot> load() {
    // One connection, one read-only transaction: the five reads see the same database state.
    return pool.withTransaction(
            tx ->
                tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                    .execute()
                    .compose(v -> tx.query(SUBSCRIPTIONS).execute())
                    .compose(
                        subs ->
                            tx.query(CURRENT_REVISIONS)
                                .execute()
                                .compose(
                                    revs ->
                                        tx.query(PACKAGES)
                                            .execute()
                                            .compose(
                                                pkgs ->
                                                    tx.query(CHANNELS)
                                                        .execute()
                                                        .compose(
                                                            chs ->
                                                                tx.query(BUNDLES)
                                                                    .execute()
                                                                    .map(
                                                                        bundles ->
                                                                            new Snapshot(
                                                                                subscriptions(subs),
                                                                                catalogs(
                                                                                    revs, pkgs, chs,
                                                                                    bundles),
                                                                                DesiredState.Reports
                                                                                    .NONE)))))))
        .compose(
            s ->
                reports == null
                    ? Future.succeededFuture(s)
                    : reports
                        .load(pool, s.subscriptions(), s.catalogs())
                        .map(r -> new Snapshot(s.subscriptions(), s.catalogs(), r)));
  }

  /** The Kubernetes version each of {@code clusters} reported (clusters without one left out). */
  Future<Map<String, String>> kubeVersions(List<String> clusters) {
    Tuple args = Tuple.tuple().addArrayOfString(clusters.toArray(String[]::new));
    return pool.preparedQuery(KUBE)
        .execute(args)
        .map(
            rows -> {
              Map<String, String> out = new HashMap<>();
              rows.forEach(r -> out.put(r.getString("name"), r.getString("kubernetes_version")));
              return out;
            });
  }

  Future<Map<String, Map<String, String>>> labels(List<String> clusters) {
    Tuple args = Tuple.tuple().addArrayOfString(clusters.toArray(String[]::new));
    return pool.preparedQuery(LABELS)
        .execute(args)
        .map(
            rows -> {
              Map<String, Map<String, String>> out = new HashMap<>();
              for (Row row : rows) {
                Map<String, String> labels = new HashMap<>();
                JsonObject json = row.getJsonObject("labels");
                if (json != null) {
                  json.forEach(e -> labels.put(e.getKey(), String.valueOf(e.getValue())));
                }
                out.put(row.getString("name"), labels);
              }
              return out;
            });
  }

  /**
   * Per cluster, what rollouts approved (subscription name to a version, or withheld: V57); see V5
   * rollout_approvals.
   */
  Future<Map<String, Map<String, Approval>>> approvedVersions(List<String> clusters) {
    Tuple args = Tuple.tuple().addArrayOfString(clusters.toArray(String[]::new));
    return pool.preparedQuery(APPROVALS)
        .execute(args)
        .map(
            rows -> {
              Map<String, Map<String, Approval>> out = new HashMap<>();
              for (Row row : rows) {
                out.computeIfAbsent(row.getString("cluster"), k -> new HashMap<>())
                    .put(
                        row.getString("subscription"),
                        new Approval(row.getString("version"), row.getString("withheld")));
              }
              return out;
            });
  }

  private static List<Subscription> subscriptions(RowSet<Row> rows) {
    List<Subscription> out = new ArrayList<>();
    for (Row r : rows) {
      String kind = r.getString("version_kind");
      SubscriptionSpec spec =
          new SubscriptionSpec(
              r.getString("name"),
              r.getString("catalog"),
              r.getString("package"),
              r.getString("channel"),
              r.getString("namespace"),
              list(r.getArrayOfStrings("target_namespaces")),
              new Placement(
                  r.getString("placement_selector"),
                  list(r.getArrayOfStrings("placement_clusters"))),
              new VersionPolicy(
                  VersionPolicy.Kind.valueOf(kind.toUpperCase(Locale.ROOT)),
                  r.getString("version_value")),
              r.getString("approval"),
              r.getJsonObject("config"),
              r.getString("team"),
              r.getString("crd_removal"),
              r.getJsonObject("requirements"),
              r.getString("crd_upgrade_safety"),
              r.getString("install_mode"));
      out.add(
          new Subscription(
              spec,
              r.getLong("generation"),
              r.getLong("resource_version"),
              r.getString("created_by"),
              null,
              null));
    }
    return out;
  }

  private static Map<String, CatalogView> catalogs(
      RowSet<Row> revisions, RowSet<Row> packages, RowSet<Row> channels, RowSet<Row> bundles) {
    // catalog -> package -> channel -> bundle -> version
    Map<String, Map<String, Map<String, Map<String, Version>>>> versions = new HashMap<>();
    for (Row b : bundles) {
      Version.tryParse(b.getString("version"))
          .ifPresent(
              v -> {
                for (String channel : list(b.getArrayOfStrings("channels"))) {
                  versions
                      .computeIfAbsent(b.getString("catalog"), k -> new HashMap<>())
                      .computeIfAbsent(b.getString("package"), k -> new HashMap<>())
                      .computeIfAbsent(channel, k -> new HashMap<>())
                      .put(b.getString("bundle"), v);
                }
              });
    }
    Map<String, Map<String, Map<String, ChannelView>>> channelViews = new HashMap<>();
    for (Row c : channels) {
      String catalog = c.getString("catalog");
      String pkg = c.getString("package");
      String channel = c.getString("channel");
      Map<String, Version> bundleVersions =
          versions
              .getOrDefault(catalog, Map.of())
              .getOrDefault(pkg, Map.of())
              .getOrDefault(channel, Map.of());
      channelViews
          .computeIfAbsent(catalog, k -> new HashMap<>())
          .computeIfAbsent(pkg, k -> new HashMap<>())
          .put(channel, new ChannelView(channel, c.getString("head"), bundleVersions));
    }
    Map<String, Map<String, PackageView>> packageViews = new HashMap<>();
    for (Row p : packages) {
      String catalog = p.getString("catalog");
      String pkg = p.getString("package");
      packageViews
          .computeIfAbsent(catalog, k -> new HashMap<>())
          .put(
              pkg,
              new PackageView(
                  pkg,
                  p.getString("default_channel"),
                  channelViews.getOrDefault(catalog, Map.of()).getOrDefault(pkg, Map.of())));
    }
    Map<String, CatalogView> out = new HashMap<>();
    for (Row r : revisions) {
      String catalog = r.getString("name");
      out.put(
          catalog,
          new CatalogView(
              catalog, r.getString("digest"), packageViews.getOrDefault(catalog, Map.of())));
    }
    return out;
  }

  private static List<String> list(String[] array) {
    return array == null ? List.of() : Arrays.asList(array);
  }
}
