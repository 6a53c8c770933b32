package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One operator group per namespace: refuses (409 naming the other) a subscription whose placement
 * can overlap that of another subscription installing into the same namespace ({@link
 * PlacementOverlap#placements}) with other target namespaces. The targets compared are the ones in
 * effect: a subscription leaving the mode to its bundle counts with the mode the catalog entry of
 * the bundle its version policy installs gives (the pinned bundle, the highest in the range, else
 * the channel head; {@link InstalledBundle}); unknown: not compared, the agent decides. Checked in
 * the writing transaction under an advisory lock on the namespace, and the catalog's verdict on the
 * mode itself (422).
 */
final class OperatorGroupConflicts {
  private static final String LOCK =
      "SELECT pg_advisory_xact_lock(hashtext('olmstead.operatorgroup/' || $1))";
  private static final String SAME_NAMESPACE =
      "SELECT s.name, s.namespace, s.package, s.catalog, s.channel, s.install_mode, "
          + "s.version_kind, s.version_value, s.target_namespaces, s.placement_selector, s.placement_clusters, s.team FROM subscriptions s "
          + "WHERE s.namespace = $1 AND s.name <> $2 ORDER BY s.name";
  // the channel (default: the package's) in the current revision: its head, each of its bundles
  // with version and modes
  private static final String CHANNEL_MODES =
      "SELECT ch.channel, ch.head, b.bundle, b.version, b.install_modes "
          + "FROM catalogs c "
          + "JOIN catalog_packages p ON p.catalog = c.name AND p.revision = c.current_revision AND p.package = $2 "
          + "JOIN catalog_channels ch ON ch.catalog = c.name AND ch.revision = c.current_revision AND ch.package = $2 "
          + "AND ch.channel = coalesce($3, p.default_channel) "
          + "JOIN catalog_bundles b ON b.catalog = c.name AND b.revision = c.current_revision AND b.package = $2 "
          + "AND (b.bundle = ch.head OR ch.channel = ANY(b.channels)) WHERE c.name = $1";

  /**
   * The bundle a subscription would install and the modes the catalog says it supports (null: not
   * told).
   */
  record HeadModes(String bundle, List<String> supported) {
    static final HeadModes UNKNOWN = new HeadModes(null, null);
  }

  /**
   * 422 when the catalog says the channel head cannot run in the spec's mode; else 409 on a
   * conflicting group.
   */
  Future<Void> check(SqlConnection tx, SubscriptionSpec spec, Principal caller) {
    return headModes(tx, spec)
        .compose(
            own -> {
              Optional<String> unsupported =
                  OperatorGroup.unsupported(spec, own.supported(), own.bundle());
              if (unsupported.isPresent()) {
                throw ApiException.validationFailed(
                    "the subscription's install mode is not supported",
                    new JsonArray()
                        .add(SubscriptionValidation.error("/installMode", unsupported.get())));
              }
              return tx.preparedQuery(LOCK)
                  .execute(Tuple.of(spec.namespace()))
                  .compose(
                      v ->
                          tx.preparedQuery(SAME_NAMESPACE)
                              .execute(Tuple.of(spec.namespace(), spec.name())))
                  .map(OperatorGroupConflicts::specs)
                  .compose(
                      others ->
                          others.isEmpty()
                              ? Future.<Void>succeededFuture()
                              : compare(
                                  tx,
                                  spec,
                                  OperatorGroup.key(spec, own.supported()),
                                  others,
                                  caller));
            });
  }

  private Future<Void> compare(
      SqlConnection tx,
      SubscriptionSpec spec,
      Optional<List<String>> mine,
      List<SubscriptionSpec> others,
      Principal caller) {
    if (mine.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Future<HeadModes>> heads = others.stream().map(o -> headModes(tx, o)).toList();
    Future<Map<String, Map<String, String>>> labels =
        SubscriptionConflicts.labels(tx, spec, others);
    return Future.all(new ArrayList<Future<?>>(heads))
        .compose(v -> labels)
        .map(
            clusters -> {
              for (int i = 0; i < others.size(); i++) {
                SubscriptionSpec other = others.get(i);
                Optional<List<String>> theirs =
                    OperatorGroup.key(other, heads.get(i).result().supported());
                Optional<String> overlap = PlacementOverlap.placements(spec, other, clusters);
                if (theirs.isPresent() && !theirs.get().equals(mine.get()) && overlap.isPresent()) {
                  throw conflict(
                      spec, other, mine.get(), theirs.get(), caller.mayAccessTeam(other.team()));
                }
              }
              return null;
            });
  }

  private static ApiException conflict(
      SubscriptionSpec spec,
      SubscriptionSpec other,
      List<String> mine,
      List<String> theirs,
      boolean visible) {
    String name = visible ? other.name() : "(of another team)";
    String detail =
        "subscription "
            + name
            + " installs into namespace "
            + spec.namespace()
            + " watching "
            + describe(theirs)
            + " and its placement can overlap this one, which would watch "
            + describe(mine)
            + "; a namespace has one operator group: use the same installMode and targetNamespaces, another namespace "
            + "or placements that cannot meet";
    return new ApiException(
        409,
        "conflict",
        "Conflict",
        detail,
        new JsonArray()
            .add(
                new JsonObject()
                    .put("field", "/installMode")
                    .put("message", "another operator group than subscription " + name)));
  }

  private static String describe(List<String> targets) {
    return targets.equals(List.of("")) ? "all namespaces" : String.join(",", targets);
  }

  private static Future<HeadModes> headModes(SqlConnection tx, SubscriptionSpec spec) {
    return tx.preparedQuery(CHANNEL_MODES)
        .execute(Tuple.of(spec.catalog(), spec.packageName(), spec.channel()))
        .map(
            rows -> {
              List<InstalledBundle.Entry> entries = new ArrayList<>();
              String channel = null;
              String head = null;
              for (Row row : rows) {
                channel = row.getString("channel");
                head = row.getString("head");
                String[] modes = row.getArrayOfStrings("install_modes");
                entries.add(
                    new InstalledBundle.Entry(
                        row.getString("bundle"),
                        row.getString("version"),
                        modes == null ? null : Arrays.asList(modes)));
              }
              return entries.isEmpty()
                  ? HeadModes.UNKNOWN
                  : InstalledBundle.modes(spec.version(), channel, head, entries);
            });
  }

  private static List<SubscriptionSpec> specs(RowSet<Row> rows) {
    List<SubscriptionSpec> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(
          new SubscriptionSpec(
              r.getString("name"),
              r.getString("catalog"),
              r.getString("package"),
              r.getString("channel"),
              r.getString("namespace"),
              Arrays.asList(r.getArrayOfStrings("target_namespaces")),
              new SubscriptionSpec.Placement(
                  r.getString("placement_selector"),
                  Arrays.asList(r.getArrayOfStrings("placement_clusters"))),
              new SubscriptionSpec.VersionPolicy(
                  SubscriptionSpec.VersionPolicy.Kind.valueOf(
                      r.getString("version_kind").toUpperCase(Locale.ROOT)),
                  r.getString("version_value")),
              null,
              null,
              r.getString("team"),
              null,
              null,
              null,
              r.getString("install_mode")));
    }
    return out;
  }
}
