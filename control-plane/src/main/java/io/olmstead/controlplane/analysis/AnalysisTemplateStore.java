package io.olmstead.controlplane.analysis;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;

/**
 * SQL of {@code analysis_templates}: one row per team and name; team {@code ""} holds the fleet-wide templates, which
 * every team may use. (Rows are written by SQL for now: the {@code /analysis-templates} endpoint is still to come.)
 */
public final class AnalysisTemplateStore {
  public static final String FLEET = "";
  private static final String COLUMNS = "team, name, spec, resource_version, created_by, created_at, updated_at";
  // the team's own template wins over a fleet-wide one of the same name
  private static final String FOR_ROLLOUT = "SELECT " + COLUMNS + " FROM analysis_templates WHERE name = $1 "
      + "AND team IN ($2, '') ORDER BY team DESC LIMIT 1";

  /** A stored template. */
  public record Template(String team, String name, AnalysisCheck check, long resourceVersion, String createdBy,
      String createdAt, String updatedAt) {
    public JsonObject toJson() {
      return check.toJson().put("name", name).put("team", FLEET.equals(team) ? null : team)
          .put("resourceVersion", String.valueOf(resourceVersion)).put("createdBy", createdBy)
          .put("createdAt", createdAt).put("updatedAt", updatedAt);
    }
  }

  /** The template a rollout of {@code team} (null: none) means by {@code name}: its team's, else the fleet-wide. */
  public Future<Optional<Template>> forRollout(SqlClient conn, String team, String name) {
    return conn.preparedQuery(FOR_ROLLOUT).execute(Tuple.of(name, team == null ? FLEET : team))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(template(rows.iterator().next())));
  }

  private static Template template(Row r) {
    return new Template(r.getString("team"), r.getString("name"), AnalysisCheck.fromJson(r.getJsonObject("spec"),
        true), r.getLong("resource_version"), r.getString("created_by"), r.getOffsetDateTime("created_at").toString(),
        r.getOffsetDateTime("updated_at").toString());
  }
}
