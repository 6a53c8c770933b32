package io.olmstead.controlplane.analysis;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL of {@code analysis_templates}: one row per team and name; team {@code ""} holds the fleet-wide templates (made
 * by callers without a team scope), which every team may use and only unscoped callers change.
 */
public final class AnalysisTemplateStore {
  public static final String FLEET = "";
  private static final String COLUMNS = "team, name, spec, resource_version, created_by, created_at, updated_at";
  private static final String GET = "SELECT " + COLUMNS + " FROM analysis_templates WHERE team = $1 AND name = $2";
  // the team's own template wins over a fleet-wide one of the same name
  private static final String FOR_ROLLOUT = "SELECT " + COLUMNS + " FROM analysis_templates WHERE name = $1 "
      + "AND team IN ($2, '') ORDER BY team DESC LIMIT 1";
  private static final String LIST = "SELECT " + COLUMNS + " FROM analysis_templates WHERE ($1::text[] IS NULL "
      + "OR team = ANY($1) OR team = '') AND (team, name) > ($2, $3) ORDER BY team, name LIMIT $4";
  private static final String INSERT = "INSERT INTO analysis_templates (team, name, spec, created_by) "
      + "VALUES ($1, $2, $3, $4) RETURNING " + COLUMNS;
  private static final String UPDATE = "UPDATE analysis_templates SET spec = $3, resource_version = resource_version "
      + "+ 1, updated_at = now() WHERE team = $1 AND name = $2 AND ($4::bigint IS NULL OR resource_version = $4) "
      + "RETURNING " + COLUMNS;
  private static final String DELETE = "DELETE FROM analysis_templates WHERE team = $1 AND name = $2 RETURNING name";

  /** A stored template. */
  public record Template(String team, String name, AnalysisCheck check, long resourceVersion, String createdBy,
      String createdAt, String updatedAt) {
    public JsonObject toJson() {
      return check.toJson().put("name", name).put("team", FLEET.equals(team) ? null : team)
          .put("resourceVersion", String.valueOf(resourceVersion)).put("createdBy", createdBy)
          .put("createdAt", createdAt).put("updatedAt", updatedAt);
    }
  }

  public Future<Optional<Template>> get(SqlClient conn, String team, String name) {
    return conn.preparedQuery(GET).execute(Tuple.of(team, name)).map(rows -> rows.size() == 0 ? Optional.empty()
        : Optional.of(template(rows.iterator().next())));
  }

  /** The template a rollout of {@code team} (null: none) means by {@code name}: its team's, else the fleet-wide. */
  public Future<Optional<Template>> forRollout(SqlClient conn, String team, String name) {
    return conn.preparedQuery(FOR_ROLLOUT).execute(Tuple.of(name, team == null ? FLEET : team))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(template(rows.iterator().next())));
  }

  /** A page after ({@code afterTeam}, {@code afterName}); {@code teams} null: every team's. */
  public Future<List<Template>> list(SqlClient conn, String[] teams, String afterTeam, String afterName, int limit) {
    return conn.preparedQuery(LIST).execute(Tuple.of(teams, afterTeam == null ? "" : afterTeam,
        afterName == null ? "" : afterName, limit)).map(rows -> {
          List<Template> out = new ArrayList<>();
          rows.forEach(r -> out.add(template(r)));
          return out;
        });
  }

  public Future<Template> insert(SqlClient conn, String team, String name, AnalysisCheck check, String actor) {
    return conn.preparedQuery(INSERT).execute(Tuple.of(team, name, check.toJson(), actor))
        .map(rows -> template(rows.iterator().next()));
  }

  /** Replaces the spec; empty when missing or (with {@code ifVersion}) changed meanwhile. */
  public Future<Optional<Template>> update(SqlClient conn, String team, String name, AnalysisCheck check,
      Long ifVersion) {
    return conn.preparedQuery(UPDATE).execute(Tuple.of(team, name, check.toJson(), ifVersion))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(template(rows.iterator().next())));
  }

  public Future<Boolean> delete(SqlClient conn, String team, String name) {
    return conn.preparedQuery(DELETE).execute(Tuple.of(team, name)).map(rows -> rows.size() > 0);
  }

  private static Template template(Row r) {
    return new Template(r.getString("team"), r.getString("name"), AnalysisCheck.fromJson(r.getJsonObject("spec"),
        true), r.getLong("resource_version"), r.getString("created_by"), r.getOffsetDateTime("created_at").toString(),
        r.getOffsetDateTime("updated_at").toString());
  }
}
