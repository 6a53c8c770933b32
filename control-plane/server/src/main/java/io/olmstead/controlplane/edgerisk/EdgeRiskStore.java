package io.olmstead.controlplane.edgerisk;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SQL of the edge-risk tables: record attempts (one row per team, edge and cluster, bounded per
 * team and edge, per team and per cluster within a team), read evidence by edge or by risk, accept
 * and clear risks.
 */
public final class EdgeRiskStore {
  private static final String COLUMNS =
      "team, package, from_version, to_version, cluster, facts, failed, detail, "
          + "source, observed_at";
  // a cluster's later attempt replaces its earlier one (dedupe per cluster and edge)
  private static final String REPLACE =
      "UPDATE edge_risk_observations SET risk_id = $6, facts = $7, failed = $8, "
          + "detail = $9, source = $10, observed_at = $11 WHERE team = $1 AND package = $2 AND from_version = $3 "
          + "AND to_version = $4 AND cluster = $5";
  // a new row only while the team's edge, the team and the cluster within the team are under their
  // bounds (what comes past them is dropped)
  private static final String INSERT_BOUNDED =
      "INSERT INTO edge_risk_observations (team, package, from_version, "
          + "to_version, cluster, risk_id, facts, failed, detail, source, observed_at) SELECT $1, $2, $3, $4, $5, $6, $7, $8, "
          + "$9, $10, $11 WHERE (SELECT count(*) FROM (SELECT 1 FROM edge_risk_observations WHERE team = $1 AND package = $2 "
          + "AND from_version = $3 AND to_version = $4 LIMIT $12) e) < $12 AND (SELECT count(*) FROM (SELECT 1 FROM "
          + "edge_risk_observations WHERE team = $1 LIMIT $13) t) < $13 AND (SELECT count(*) FROM (SELECT 1 FROM "
          + "edge_risk_observations WHERE team = $1 AND cluster = $5 LIMIT $14) c) < $14 ON CONFLICT DO NOTHING";
  private static final String BY_EDGES =
      "SELECT "
          + COLUMNS
          + " FROM edge_risk_observations WHERE package = $1 "
          + "AND to_version = $2 AND from_version = ANY($3)";
  private static final String BY_RISK =
      "SELECT "
          + COLUMNS
          + " FROM edge_risk_observations WHERE risk_id = $1 "
          + "ORDER BY team, cluster";
  private static final String RISKS_PAGE =
      "SELECT DISTINCT risk_id FROM edge_risk_observations "
          + "WHERE ($1::text IS NULL OR risk_id > $1) AND ($2::text IS NULL OR package = $2) ORDER BY risk_id LIMIT $3";
  // what one caller is shown of each risk: its edge and facts (one row), its teams' rows, other
  // teams' only counted
  private static final String EDGES_OF_RISKS =
      "SELECT DISTINCT ON (risk_id) risk_id, "
          + COLUMNS
          + " FROM edge_risk_observations WHERE risk_id = ANY($1) ORDER BY risk_id, team, cluster";
  private static final String OWN_BY_RISKS =
      "SELECT risk_id, "
          + COLUMNS
          + " FROM edge_risk_observations "
          + "WHERE risk_id = ANY($1) AND ($2::text[] IS NULL OR team = ANY($2)) ORDER BY risk_id, team, cluster";
  private static final String OTHERS_BY_RISKS =
      "SELECT risk_id, failed, observed_at, count(*) AS n "
          + "FROM edge_risk_observations WHERE risk_id = ANY($1) AND $2::text[] IS NOT NULL AND NOT (team = ANY($2)) "
          + "GROUP BY risk_id, failed, observed_at";
  private static final String ACCEPTED_FOR_TEAM =
      "SELECT risk_id, max(accepted_at) AS at FROM edge_risk_acceptances "
          + "WHERE risk_id = ANY($1) AND team IN ($2, '*') GROUP BY risk_id";
  private static final String ACCEPTANCES =
      "SELECT risk_id, team, accepted_by, accepted_at, comment "
          + "FROM edge_risk_acceptances WHERE risk_id = ANY($1) ORDER BY risk_id, team";
  private static final String ACCEPT =
      "INSERT INTO edge_risk_acceptances (risk_id, team, accepted_by, accepted_at, "
          + "comment) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (risk_id, team) DO UPDATE SET accepted_by = $3, "
          + "accepted_at = $4, comment = $5";
  private static final String CLEAR =
      "DELETE FROM edge_risk_observations WHERE risk_id = $1 "
          + "AND ($2::text[] IS NULL OR team = ANY($2))";
  private static final String CLEAR_ACCEPTANCES =
      "DELETE FROM edge_risk_acceptances WHERE risk_id = $1 "
          + "AND ($2::text[] IS NULL OR team = ANY($2))";

  private static final String CLUSTERS =
      "SELECT name, labels, facts FROM clusters WHERE name = ANY($1)";
  // the edges from the versions some clusters run ($1 packages, $2 versions, pairwise) whose risk
  // has a failure on record: every row of such a risk has the same edge
  private static final String ON_FAILING_RISKS =
      "SELECT "
          + COLUMNS
          + " FROM edge_risk_observations WHERE (package, from_version) IN (SELECT * FROM "
          + "unnest($1::text[], $2::text[])) AND risk_id IN (SELECT risk_id FROM edge_risk_observations "
          + "WHERE failed AND (package, from_version) IN (SELECT * FROM unnest($1::text[], $2::text[])))";
  private static final String FAILING_PACKAGES =
      "SELECT DISTINCT package FROM edge_risk_observations WHERE failed";
  private static final String FAILING =
      "SELECT DISTINCT risk_id FROM edge_risk_observations WHERE risk_id = ANY($1) " + "AND failed";

  /**
   * The bounds of what is remembered: clusters per team and edge, rows per team, rows of one
   * cluster within a team.
   */
  public record Bounds(int perEdge, int perTeam, int perCluster) {}

  /** A person's acceptance of a risk for a team ({@code *}: every team). */
  public record Acceptance(String riskId, String team, String by, Instant at, String comment) {}

  /**
   * Records {@code attempts} in order; returns how many were kept (the others were past the
   * bounds).
   */
  public Future<Integer> record(SqlClient client, List<Evidence> attempts, Bounds bounds) {
    Future<Integer> chain = Future.succeededFuture(0);
    for (Evidence e : attempts) {
      Tuple row =
          Tuple.of(
              e.team(),
              e.pkg(),
              e.from(),
              e.to(),
              e.cluster(),
              e.riskId(),
              e.facts().toJson(),
              e.failed(),
              e.detail(),
              e.source(),
              OffsetDateTime.ofInstant(e.at(), ZoneOffset.UTC));
      chain =
          chain.compose(
              kept ->
                  client
                      .preparedQuery(REPLACE)
                      .execute(row)
                      .compose(
                          replaced ->
                              replaced.rowCount() > 0
                                  ? Future.succeededFuture(kept + 1)
                                  : client
                                      .preparedQuery(INSERT_BOUNDED)
                                      .execute(
                                          row.addInteger(bounds.perEdge())
                                              .addInteger(bounds.perTeam())
                                              .addInteger(bounds.perCluster()))
                                      .map(inserted -> kept + inserted.rowCount())));
    }
    return chain;
  }

  /**
   * Every team's evidence on the edges {@code from -> to} of {@code pkg}, for each of {@code
   * froms}.
   */
  public Future<List<Evidence>> onEdges(
      SqlClient client, String pkg, String to, Set<String> froms) {
    if (froms.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return client
        .preparedQuery(BY_EDGES)
        .execute(Tuple.of(pkg, to, froms.toArray(String[]::new)))
        .map(EdgeRiskStore::evidence);
  }

  /** Every team's evidence on one risk. */
  public Future<List<Evidence>> onRisk(SqlClient client, String riskId) {
    return client.preparedQuery(BY_RISK).execute(Tuple.of(riskId)).map(EdgeRiskStore::evidence);
  }

  /**
   * The next {@code limit} risk ids after {@code after} (null: from the start), of {@code pkg} when
   * given.
   */
  public Future<List<String>> riskIds(SqlClient client, String after, String pkg, int limit) {
    return client
        .preparedQuery(RISKS_PAGE)
        .execute(Tuple.of(after, pkg, limit))
        .map(
            rows -> {
              List<String> out = new ArrayList<>();
              rows.forEach(r -> out.add(r.getString("risk_id")));
              return out;
            });
  }

  /**
   * Other teams' attempts at a risk, counted: {@code count} of them with this outcome at this time
   * (their clusters, facts and messages are not read).
   */
  public record Tally(boolean failed, Instant at, long count) {}

  /**
   * A risk as one caller is shown it: {@code first}, the risk's first row (its edge and facts, the
   * same for every team), the rows of the caller's teams, and other teams' rows only counted.
   */
  public record Shown(Evidence first, List<Evidence> own, List<Tally> others) {}

  /**
   * The evidence on each of {@code ids} (those with any) as a caller of {@code teams} (null: every
   * team, see {@code Principal#teamFilter()}) is shown it: full rows only of its teams, other
   * teams' counted in SQL.
   */
  public Future<Map<String, Shown>> shown(SqlClient client, List<String> ids, String[] teams) {
    String[] risks = ids.toArray(String[]::new);
    Tuple byTeam = Tuple.tuple().addArrayOfString(risks).addArrayOfString(teams);
    Future<RowSet<Row>> edges = client.preparedQuery(EDGES_OF_RISKS).execute(Tuple.of(risks));
    Future<RowSet<Row>> own =
        edges.compose(v -> client.preparedQuery(OWN_BY_RISKS).execute(byTeam));
    Future<RowSet<Row>> others =
        own.compose(v -> client.preparedQuery(OTHERS_BY_RISKS).execute(byTeam));
    return others.map(
        v -> {
          Map<String, List<Evidence>> ownRows = new HashMap<>();
          own.result()
              .forEach(
                  r ->
                      ownRows
                          .computeIfAbsent(r.getString("risk_id"), k -> new ArrayList<>())
                          .add(evidence(r)));
          Map<String, List<Tally>> counted = new HashMap<>();
          others
              .result()
              .forEach(
                  r ->
                      counted
                          .computeIfAbsent(r.getString("risk_id"), k -> new ArrayList<>())
                          .add(
                              new Tally(
                                  r.getBoolean("failed"),
                                  r.getOffsetDateTime("observed_at").toInstant(),
                                  r.getLong("n"))));
          Map<String, Shown> out = new HashMap<>();
          edges
              .result()
              .forEach(
                  r -> {
                    String id = r.getString("risk_id");
                    out.put(
                        id,
                        new Shown(
                            evidence(r),
                            ownRows.getOrDefault(id, List.of()),
                            counted.getOrDefault(id, List.of())));
                  });
          return out;
        });
  }

  /**
   * The newest acceptance of each of {@code ids} that applies to {@code team} (its own or every
   * team's).
   */
  public Future<Map<String, Instant>> acceptedFor(SqlClient client, Set<String> ids, String team) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    return client
        .preparedQuery(ACCEPTED_FOR_TEAM)
        .execute(Tuple.of(ids.toArray(String[]::new), team == null ? "" : team))
        .map(
            rows -> {
              Map<String, Instant> out = new HashMap<>();
              rows.forEach(
                  r -> out.put(r.getString("risk_id"), r.getOffsetDateTime("at").toInstant()));
              return out;
            });
  }

  /** Every acceptance of each of {@code ids}. */
  public Future<List<Acceptance>> acceptances(SqlClient client, List<String> ids) {
    return client
        .preparedQuery(ACCEPTANCES)
        .execute(Tuple.of(ids.toArray(String[]::new)))
        .map(
            rows -> {
              List<Acceptance> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(
                          new Acceptance(
                              r.getString("risk_id"),
                              r.getString("team"),
                              r.getString("accepted_by"),
                              r.getOffsetDateTime("accepted_at").toInstant(),
                              r.getString("comment"))));
              return out;
            });
  }

  /** Accepts {@code riskId} for each of {@code teams} at {@code at}. */
  public Future<Void> accept(
      SqlClient client, String riskId, List<String> teams, String by, Instant at, String comment) {
    List<Tuple> rows =
        teams.stream()
            .map(
                t -> Tuple.of(riskId, t, by, OffsetDateTime.ofInstant(at, ZoneOffset.UTC), comment))
            .toList();
    return client.preparedQuery(ACCEPT).executeBatch(rows).mapEmpty();
  }

  /**
   * Deletes the evidence and acceptances of {@code teams} (null: of every team) on {@code riskId};
   * rows deleted.
   */
  public Future<Integer> clear(SqlClient client, String riskId, String[] teams) {
    // built explicitly: Tuple.of(riskId, teams) would spread the array into the varargs
    Tuple args = Tuple.tuple().addString(riskId).addArrayOfString(teams);
    return client
        .preparedQuery(CLEAR)
        .execute(args)
        .compose(
            deleted ->
                client.preparedQuery(CLEAR_ACCEPTANCES).execute(args).map(a -> deleted.rowCount()));
  }

  /** The facts of each of {@code clusters} that exists, matched on the labels {@code named}. */
  public Future<Map<String, EdgeFacts>> facts(
      SqlClient client, List<String> clusters, List<String> named) {
    if (clusters.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    return client
        .preparedQuery(CLUSTERS)
        .execute(Tuple.of(clusters.toArray(String[]::new)))
        .map(
            rows -> {
              Map<String, EdgeFacts> out = new HashMap<>();
              for (Row r : rows) {
                Map<String, String> labels = new HashMap<>();
                r.getJsonObject("labels")
                    .forEach(e -> labels.put(e.getKey(), String.valueOf(e.getValue())));
                out.put(r.getString("name"), EdgeFacts.of(labels, r.getJsonObject("facts"), named));
              }
              return out;
            });
  }

  /** The packages with a failure on record (only their edges can hold a cluster). */
  public Future<List<String>> failingPackages(SqlClient client) {
    return client
        .query(FAILING_PACKAGES)
        .execute()
        .map(
            rows -> {
              List<String> out = new ArrayList<>();
              rows.forEach(r -> out.add(r.getString("package")));
              return out;
            });
  }

  /**
   * Every team's evidence on the risks with a failure on record of the edges from {@code
   * versions[i]} of {@code packages[i]} (what can hold a cluster running them).
   */
  public Future<List<Evidence>> onFailingRisks(
      SqlClient client, String[] packages, String[] versions) {
    if (packages.length == 0) {
      return Future.succeededFuture(List.of());
    }
    return client
        .preparedQuery(ON_FAILING_RISKS)
        .execute(Tuple.tuple().addArrayOfString(packages).addArrayOfString(versions))
        .map(EdgeRiskStore::evidence);
  }

  /** Which of {@code ids} have a failure on record. */
  public Future<Set<String>> failing(SqlClient client, Set<String> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    return client
        .preparedQuery(FAILING)
        .execute(Tuple.of(ids.toArray(String[]::new)))
        .map(
            rows -> {
              Set<String> out = new HashSet<>();
              rows.forEach(r -> out.add(r.getString("risk_id")));
              return out;
            });
  }

  private static List<Evidence> evidence(RowSet<Row> rows) {
    List<Evidence> out = new ArrayList<>();
    rows.forEach(r -> out.add(evidence(r)));
    return out;
  }

  private static Evidence evidence(Row r) {
    return new Evidence(
        r.getString("team"),
        r.getString("package"),
        r.getString("from_version"),
        r.getString("to_version"),
        r.getString("cluster"),
        EdgeFacts.fromJson(r.getJsonObject("facts")),
        r.getBoolean("failed"),
        r.getString("detail"),
        r.getString("source"),
        r.getOffsetDateTime("observed_at").toInstant());
  }
}
