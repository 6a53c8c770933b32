package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.subscription.SubscriptionSpec.Placement;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** SQL for fleet subscriptions; mutations take the caller's transaction connection. */
public final class SubscriptionStore {
  private static final String COLUMNS =
      "name, catalog, package, channel, namespace, target_namespaces, "
          + "placement_selector, placement_clusters, version_kind, version_value, approval, config, team, crd_removal, "
          + "requirements, crd_upgrade_safety, install_mode, generation, resource_version, created_by, created_at, updated_at, "
          + "rollout_strategy, applied_version_kind, applied_version_value";
  private static final String GET = "SELECT " + COLUMNS + " FROM subscriptions WHERE name = $1";
  private static final String LOCK = GET + " FOR UPDATE";
  private static final String LIST =
      "SELECT "
          + COLUMNS
          + " FROM subscriptions "
          + "WHERE ($1::text IS NULL OR name > $1) AND ($2::text[] IS NULL OR team = ANY($2)) ORDER BY name LIMIT $3";
  private static final String ALL = "SELECT " + COLUMNS + " FROM subscriptions ORDER BY name";
  private static final String INSERT =
      "INSERT INTO subscriptions (name, catalog, package, channel, namespace, "
          + "target_namespaces, placement_selector, placement_clusters, version_kind, version_value, approval, config, "
          + "team, crd_removal, created_by, requirements, crd_upgrade_safety, install_mode, rollout_strategy) "
          + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)";
  private static final String UPDATE =
      "UPDATE subscriptions SET catalog = $2, package = $3, channel = $4, "
          + "namespace = $5, target_namespaces = $6, placement_selector = $7, placement_clusters = $8, "
          + "version_kind = $9, version_value = $10, approval = $11, config = $12, team = $13, crd_removal = $14, "
          + "generation = generation + CASE WHEN $15 THEN 1 ELSE 0 END, resource_version = resource_version + 1, "
          + "requirements = $16, crd_upgrade_safety = $17, install_mode = $18, rollout_strategy = $19, updated_at = now() "
          + "WHERE name = $1";
  private static final String SET_APPLIED =
      "UPDATE subscriptions SET applied_version_kind = $2, "
          + "applied_version_value = $3 WHERE name = $1";
  // an imperative rollout of a pinned subscription declares its target: the pin moves, and what
  // agents ran until now
  // stays applied (unless something already is) until the rollout succeeds
  private static final String DECLARE_PIN =
      "UPDATE subscriptions SET "
          + "applied_version_kind = COALESCE(applied_version_kind, version_kind), "
          + "applied_version_value = CASE WHEN applied_version_kind IS NULL THEN version_value "
          + "ELSE applied_version_value END, version_value = $2, generation = generation + 1, "
          + "resource_version = resource_version + 1, updated_at = now() "
          + "WHERE name = $1 AND version_kind = 'pin' AND version_value IS DISTINCT FROM $2 RETURNING name";
  private static final String SAME_TARGET =
      "SELECT "
          + COLUMNS
          + " FROM subscriptions WHERE package = $1 "
          + "AND namespace = $2 AND name <> $3 ORDER BY name";
  private static final String DELETE = "DELETE FROM subscriptions WHERE name = $1";
  // versions and bundles approved for the subscription on clusters (by rollouts and by hand) go
  // with it; a new
  // version policy replaces what rollouts approved
  private static final String DELETE_ROLLOUT_APPROVALS =
      "DELETE FROM rollout_approvals WHERE subscription = $1";
  private static final String DELETE_BUNDLE_APPROVALS =
      "DELETE FROM cluster_approvals WHERE subscription = $1";
  private static final String ACTIVE_ROLLOUT =
      "SELECT id FROM rollouts WHERE subscription = $1 " + "AND state IN ('Progressing', 'Paused')";

  public Future<Optional<Subscription>> get(SqlClient client, String name) {
    return client.preparedQuery(GET).execute(Tuple.of(name)).map(SubscriptionStore::first);
  }

  /** Locks the row for the rest of the transaction. */
  public Future<Optional<Subscription>> lock(SqlConnection tx, String name) {
    return tx.preparedQuery(LOCK).execute(Tuple.of(name)).map(SubscriptionStore::first);
  }

  /**
   * Subscriptions by name after {@code afterName}; {@code teams} non-null restricts to those teams.
   */
  public Future<List<Subscription>> list(
      SqlClient client, String afterName, List<String> teams, int limit) {
    String[] teamArray = teams == null ? null : teams.toArray(new String[0]);
    return client
        .preparedQuery(LIST)
        .execute(Tuple.of(afterName, teamArray, limit))
        .map(SubscriptionStore::all);
  }

  /** Every subscription (desired-state computation needs them all; there are at most thousands). */
  public Future<List<Subscription>> all(SqlClient client) {
    return client.preparedQuery(ALL).execute().map(SubscriptionStore::all);
  }

  /** The other subscriptions installing {@code packageName} into {@code namespace}, by name. */
  public Future<List<Subscription>> sameTarget(
      SqlClient client, String packageName, String namespace, String except) {
    return client
        .preparedQuery(SAME_TARGET)
        .execute(Tuple.of(packageName, namespace, except))
        .map(SubscriptionStore::all);
  }

  public Future<Void> insert(SqlConnection tx, SubscriptionSpec spec, String createdBy) {
    Tuple args =
        specTuple(spec)
            .addString(createdBy)
            .addValue(spec.requirements())
            .addString(spec.crdUpgradeSafety())
            .addString(spec.installMode())
            .addValue(spec.rolloutStrategy());
    return tx.preparedQuery(INSERT).execute(args).mapEmpty();
  }

  /**
   * Replaces the spec; the generation grows only when {@code specChanged} (agents ack generations).
   */
  public Future<Void> update(SqlConnection tx, SubscriptionSpec spec, boolean specChanged) {
    return tx.preparedQuery(UPDATE)
        .execute(
            specTuple(spec)
                .addBoolean(specChanged)
                .addValue(spec.requirements())
                .addString(spec.crdUpgradeSafety())
                .addString(spec.installMode())
                .addValue(spec.rolloutStrategy()))
        .mapEmpty();
  }

  /**
   * Sets the version policy agents are told outside rollout approvals (null: the declared one
   * applies).
   */
  public Future<Void> setApplied(SqlConnection tx, String name, VersionPolicy applied) {
    return tx.preparedQuery(SET_APPLIED)
        .execute(
            Tuple.of(
                name,
                applied == null ? null : applied.kind().key(),
                applied == null ? null : applied.value()))
        .mapEmpty();
  }

  /**
   * Moves a pinned subscription's declared pin to {@code version}, keeping what agents ran applied
   * until a rollout succeeds; false when the subscription does not pin or already pins {@code
   * version}.
   */
  public Future<Boolean> declarePin(SqlConnection tx, String name, String version) {
    return tx.preparedQuery(DECLARE_PIN)
        .execute(Tuple.of(name, version))
        .map(rows -> rows.size() == 1);
  }

  public Future<Void> delete(SqlConnection tx, String name) {
    return tx.preparedQuery(DELETE)
        .execute(Tuple.of(name))
        .compose(v -> tx.preparedQuery(DELETE_ROLLOUT_APPROVALS).execute(Tuple.of(name)))
        .compose(v -> tx.preparedQuery(DELETE_BUNDLE_APPROVALS).execute(Tuple.of(name)))
        .mapEmpty();
  }

  /** The subscription's progressing or paused rollout, if any. */
  public Future<Optional<String>> activeRollout(SqlClient client, String name) {
    return client
        .preparedQuery(ACTIVE_ROLLOUT)
        .execute(Tuple.of(name))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(rows.iterator().next().getString("id")));
  }

  /**
   * Drops what rollouts approved for the subscription: its version policy rules every cluster
   * again.
   */
  public Future<Void> clearRolloutApprovals(SqlConnection tx, String name) {
    return tx.preparedQuery(DELETE_ROLLOUT_APPROVALS).execute(Tuple.of(name)).mapEmpty();
  }

  private static Tuple specTuple(SubscriptionSpec s) {
    return Tuple.tuple()
        .addString(s.name())
        .addString(s.catalog())
        .addString(s.packageName())
        .addString(s.channel())
        .addString(s.namespace())
        .addArrayOfString(s.targetNamespaces().toArray(new String[0]))
        .addString(s.placement().selector())
        .addArrayOfString(s.placement().clusters().toArray(new String[0]))
        .addString(s.version().kind().key())
        .addString(s.version().value())
        .addString(s.approval())
        .addValue(s.config())
        .addString(s.team())
        .addString(s.crdRemoval());
  }

  private static Optional<Subscription> first(RowSet<Row> rows) {
    var it = rows.iterator();
    return it.hasNext() ? Optional.of(of(it.next())) : Optional.empty();
  }

  private static List<Subscription> all(RowSet<Row> rows) {
    List<Subscription> out = new ArrayList<>(rows.size());
    rows.forEach(row -> out.add(of(row)));
    return out;
  }

  static Subscription of(Row row) {
    Object config = row.getValue("config");
    SubscriptionSpec spec =
        new SubscriptionSpec(
            row.getString("name"),
            row.getString("catalog"),
            row.getString("package"),
            row.getString("channel"),
            row.getString("namespace"),
            Arrays.asList(row.getArrayOfStrings("target_namespaces")),
            new Placement(
                row.getString("placement_selector"),
                Arrays.asList(row.getArrayOfStrings("placement_clusters"))),
            new VersionPolicy(
                VersionPolicy.Kind.valueOf(row.getString("version_kind").toUpperCase(Locale.ROOT)),
                row.getString("version_value")),
            row.getString("approval"),
            config instanceof JsonObject json ? json : new JsonObject(),
            row.getString("team"),
            row.getString("crd_removal"),
            row.getValue("requirements") instanceof JsonObject requirements ? requirements : null,
            row.getString("crd_upgrade_safety"),
            row.getString("install_mode"),
            row.getValue("rollout_strategy") instanceof JsonObject strategy ? strategy : null);
    String applied = row.getString("applied_version_kind");
    return new Subscription(
        spec,
        row.getLong("generation"),
        row.getLong("resource_version"),
        row.getString("created_by"),
        row.getOffsetDateTime("created_at"),
        row.getOffsetDateTime("updated_at"),
        applied == null
            ? null
            : new VersionPolicy(
                VersionPolicy.Kind.valueOf(applied.toUpperCase(Locale.ROOT)),
                row.getString("applied_version_value")));
  }
}
