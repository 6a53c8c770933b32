package io.olmstead.controlplane.clusters;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code cluster_approvals} table: one approved bundle per cluster and subscription. Its
 * trigger (V4) notifies the agent gateways at commit, which push {@code approve} to the cluster's
 * agent; nothing here sends anything.
 */
public final class ApprovalStore {
  private static final String LOCK =
      "SELECT "
          + ClusterApproval.COLUMNS
          + " FROM cluster_approvals "
          + "WHERE cluster = $1 AND subscription = $2 FOR UPDATE";
  private static final String UPSERT =
      "INSERT INTO cluster_approvals (cluster, subscription, bundle, approved_by) "
          + "VALUES ($1, $2, $3, $4) ON CONFLICT (cluster, subscription) DO UPDATE SET bundle = EXCLUDED.bundle, "
          + "approved_by = EXCLUDED.approved_by, approved_at = now() RETURNING "
          + ClusterApproval.COLUMNS;
  // a team-scoped caller sees only approvals of its teams' subscriptions (as it sees only those
  // subscriptions)
  private static final String PAGE =
      "SELECT "
          + prefixed("a.")
          + " FROM cluster_approvals a "
          + "LEFT JOIN subscriptions s ON s.name = a.subscription WHERE a.cluster = $1 "
          + "AND ($2::text IS NULL OR a.subscription > $2) AND ($3::text[] IS NULL OR s.team = ANY($3)) "
          + "ORDER BY a.subscription LIMIT $4";

  // the clusters waiting for exactly this bundle of this subscription, as their agents last
  // reported (the bundle is the
  // message of the RequiresApproval condition); retired clusters never come back to take an
  // approval
  private static final String WAITING =
      "SELECT c.name, c.labels FROM subscription_status s "
          + "JOIN clusters c ON c.name = s.cluster WHERE s.subscription = $1 AND NOT s.gone "
          + "AND s.phase = 'RequiresApproval' AND c.status <> 'retired' AND s.conditions @> "
          + "jsonb_build_array(jsonb_build_object('type', 'RequiresApproval', 'message', $2::text)) ORDER BY c.name";
  private static final String UPSERT_MANY =
      "INSERT INTO cluster_approvals (cluster, subscription, bundle, approved_by) "
          + "SELECT unnest($1::text[]), $2, $3, $4 ON CONFLICT (cluster, subscription) DO UPDATE SET "
          + "bundle = EXCLUDED.bundle, approved_by = EXCLUDED.approved_by, approved_at = now() "
          + "WHERE cluster_approvals.bundle <> EXCLUDED.bundle RETURNING cluster";

  /**
   * A cluster that reports waiting for an approval, with its labels (for placement, selector and
   * team checks).
   */
  public record Waiting(String cluster, Map<String, String> labels) {}

  /**
   * What approving did: the stored approval, the bundle approved before (null: none) and whether
   * anything changed.
   */
  public record Approved(ClusterApproval approval, String previousBundle, boolean changed) {}

  /**
   * Approves {@code bundle} of {@code subscription} on {@code cluster} in the caller's transaction.
   * Approving the bundle already approved changes nothing (no write, so no notification); another
   * bundle replaces the approval.
   */
  public Future<Approved> approve(
      SqlClient tx, String cluster, String subscription, String bundle, String approvedBy) {
    return tx.preparedQuery(LOCK)
        .execute(Tuple.of(cluster, subscription))
        .map(ApprovalStore::first)
        .compose(
            existing -> {
              if (existing.isPresent() && existing.get().bundle().equals(bundle)) {
                return Future.succeededFuture(new Approved(existing.get(), bundle, false));
              }
              String previous = existing.map(ClusterApproval::bundle).orElse(null);
              return tx.preparedQuery(UPSERT)
                  .execute(Tuple.of(cluster, subscription, bundle, approvedBy))
                  .map(rows -> new Approved(all(rows).get(0), previous, true));
            });
  }

  /**
   * The clusters whose agents report {@code subscription} waiting for exactly {@code bundle}, by
   * name.
   */
  public Future<List<Waiting>> waiting(SqlClient client, String subscription, String bundle) {
    return client
        .preparedQuery(WAITING)
        .execute(Tuple.of(subscription, bundle))
        .map(
            rows -> {
              List<Waiting> out = new ArrayList<>(rows.size());
              rows.forEach(
                  row -> {
                    Map<String, String> labels = new HashMap<>();
                    row.getJsonObject("labels")
                        .forEach(e -> labels.put(e.getKey(), String.valueOf(e.getValue())));
                    out.add(new Waiting(row.getString("name"), labels));
                  });
              return out;
            });
  }

  /**
   * Approves {@code bundle} on every one of {@code clusters} in one statement; answers the clusters
   * whose approval changed (the others had exactly this bundle approved already and are not
   * written, so not notified again).
   */
  public Future<List<String>> approveMany(
      SqlClient tx, List<String> clusters, String subscription, String bundle, String approvedBy) {
    return tx.preparedQuery(UPSERT_MANY)
        .execute(Tuple.of(clusters.toArray(new String[0]), subscription, bundle, approvedBy))
        .map(
            rows -> {
              List<String> changed = new ArrayList<>(rows.size());
              rows.forEach(row -> changed.add(row.getString(0)));
              return changed;
            });
  }

  /**
   * A cluster's approvals by subscription after {@code afterSubscription}; {@code teams} non-null
   * restricts them.
   */
  public Future<List<ClusterApproval>> page(
      SqlClient client, String cluster, String afterSubscription, List<String> teams, int limit) {
    String[] teamArray = teams == null ? null : teams.toArray(new String[0]);
    return client
        .preparedQuery(PAGE)
        .execute(Tuple.of(cluster, afterSubscription, teamArray, limit))
        .map(ApprovalStore::all);
  }

  private static String prefixed(String alias) {
    return alias + ClusterApproval.COLUMNS.replace(", ", ", " + alias);
  }

  private static Optional<ClusterApproval> first(RowSet<Row> rows) {
    List<ClusterApproval> all = all(rows);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
  }

  private static List<ClusterApproval> all(RowSet<Row> rows) {
    List<ClusterApproval> out = new ArrayList<>(rows.size());
    rows.forEach(row -> out.add(ClusterApproval.of(row)));
    return out;
  }
}
