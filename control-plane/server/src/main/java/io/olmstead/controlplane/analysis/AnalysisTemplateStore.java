package io.olmstead.controlplane.analysis;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL of {@code analysis_templates}: one row per team and name; team {@code ""} holds the
 * fleet-wide templates, which every team may use and read.
 */
public final class AnalysisTemplateStore {
  public static final String FLEET = "";
  private static final String COLUMNS =
      "team, name, spec, resource_version, created_by, created_at, updated_at";
  // the team's own template wins over a fleet-wide one of the same name
  private static final String FOR_ROLLOUT =
      "SELECT "
          + COLUMNS
          + " FROM analysis_templates WHERE name = $1 "
          + "AND team IN ($2, '') ORDER BY team DESC LIMIT 1";
  private static final String GET =
      "SELECT " + COLUMNS + " FROM analysis_templates WHERE team = $1 AND name = $2";
  // $1: the caller's teams (null: every team); fleet-wide templates are everyone's
  private static final String LIST =
      "SELECT "
          + COLUMNS
          + " FROM analysis_templates WHERE ($1::text[] IS NULL "
          + "OR team = '' OR team = ANY($1)) AND ($2::text IS NULL OR (team, name) > ($2, $3)) ORDER BY team, name "
          + "LIMIT $4";
  private static final String LOCK =
      "SELECT resource_version FROM analysis_templates WHERE team = $1 AND name = $2 "
          + "FOR UPDATE";
  private static final String INSERT =
      "INSERT INTO analysis_templates (team, name, spec, created_by) " + "VALUES ($1, $2, $3, $4)";
  private static final String UPDATE =
      "UPDATE analysis_templates SET spec = $3, resource_version = resource_version "
          + "+ 1, updated_at = now() WHERE team = $1 AND name = $2";
  private static final String DELETE =
      "DELETE FROM analysis_templates WHERE team = $1 AND name = $2";

  /** A stored template. */
  public record Template(
      String team,
      String name,
      AnalysisCheck check,
      long resourceVersion,
      String createdBy,
      String createdAt,
      String updatedAt) {
    public JsonObject toJson() {
      return check
          .toJson()
          .put("name", name)
          .put("team", FLEET.equals(team) ? null : team)
          .put("resourceVersion", resourceVersion)
          .put("createdBy", createdBy)
          .put("createdAt", createdAt)
          .put("updatedAt", updatedAt);
    }
  }

  /**
   * The template a rollout of {@code team} (null: none) means by {@code name}: its team's, else the
   * fleet-wide.
   */
  public Future<Optional<Template>> forRollout(SqlClient conn, String team, String name) {
    return conn.preparedQuery(FOR_ROLLOUT)
        .execute(Tuple.of(name, team == null ? FLEET : team))
        .map(this::first);
  }

  /** The template of {@code team} ({@link #FLEET}: the fleet-wide one) called {@code name}. */
  public Future<Optional<Template>> get(SqlClient conn, String team, String name) {
    return conn.preparedQuery(GET).execute(Tuple.of(team, name)).map(this::first);
  }

  /**
   * Templates the caller may read ({@code teams} null: all), by team then name, after the key
   * (null: from the start).
   */
  public Future<List<Template>> list(
      SqlClient conn, String[] teams, String afterTeam, String afterName, int limit) {
    return conn.preparedQuery(LIST)
        .execute(Tuple.of(teams, afterTeam, afterName, limit))
        .map(
            rows -> {
              List<Template> out = new ArrayList<>();
              rows.forEach(r -> out.add(template(r)));
              return out;
            });
  }

  /** Locks the row for the rest of the transaction; its version, or empty when there is none. */
  public Future<Optional<Long>> lock(SqlClient tx, String team, String name) {
    return tx.preparedQuery(LOCK)
        .execute(Tuple.of(team, name))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(rows.iterator().next().getLong(0)));
  }

  public Future<Void> insert(
      SqlClient tx, String team, String name, JsonObject spec, String createdBy) {
    return tx.preparedQuery(INSERT).execute(Tuple.of(team, name, spec, createdBy)).mapEmpty();
  }

  public Future<Void> update(SqlClient tx, String team, String name, JsonObject spec) {
    return tx.preparedQuery(UPDATE).execute(Tuple.of(team, name, spec)).mapEmpty();
  }

  public Future<Void> delete(SqlClient tx, String team, String name) {
    return tx.preparedQuery(DELETE).execute(Tuple.of(team, name)).mapEmpty();
  }

  private Optional<Template> first(RowSet<Row> rows) {
    return rows.size() == 0 ? Optional.empty() : Optional.of(template(rows.iterator().next()));
  }

  private static Template template(Row r) {
    return new Template(
        r.getString("team"),
        r.getString("name"),
        AnalysisCheck.fromJson(r.getJsonObject("spec"), true),
        r.getLong("resource_version"),
        r.getString("created_by"),
        r.getOffsetDateTime("created_at").toString(),
        r.getOffsetDateTime("updated_at").toString());
  }
}
