package io.olmstead.controlplane.auditlog;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /audit}: the audit log newest first, for admins without a team scope (it spans every
 * team).
 */
public final class AuditModule implements ApiModule {
  private static final String COLUMNS =
      "id, at, actor, action, resource, outcome, detail, request_id";
  private static final String FIRST_PAGE =
      "SELECT " + COLUMNS + " FROM audit_log ORDER BY id DESC LIMIT $1";
  private static final String PAGE =
      "SELECT " + COLUMNS + " FROM audit_log WHERE id < $1 ORDER BY id DESC LIMIT $2";

  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "listAudit", this::list);
  }

  private Future<Reply> list(ApiRequest request) {
    if (request.principal().teamScoped()) {
      throw ApiException.forbidden(
          "the audit log spans all teams; a team-scoped token cannot read it");
    }
    int limit = request.limit();
    Long after =
        request
            .cursor()
            .map(
                c -> {
                  Object key = Cursors.decode(c, 1).getValue(0);
                  if (!(key instanceof Number n)) {
                    throw ApiException.badRequest(
                        "the cursor is not one this server issued", "query.cursor");
                  }
                  return n.longValue();
                })
            .orElse(null);
    return context
        .tx()
        .read(
            conn ->
                after == null
                    ? conn.preparedQuery(FIRST_PAGE).execute(Tuple.of(limit + 1))
                    : conn.preparedQuery(PAGE).execute(Tuple.of(after, limit + 1)))
        .map(
            rows -> {
              List<Row> list = new ArrayList<>();
              rows.forEach(list::add);
              return Reply.ok(
                  Cursors.page(
                      list,
                      limit,
                      AuditModule::toJson,
                      row -> new JsonArray().add(row.getLong("id"))));
            });
  }

  private static JsonObject toJson(Row row) {
    Object detail = row.getValue("detail");
    return new JsonObject()
        .put("id", row.getLong("id"))
        .put("at", row.getOffsetDateTime("at").toString())
        .put("actor", row.getString("actor"))
        .put("action", row.getString("action"))
        .put("resource", row.getString("resource"))
        .put("outcome", row.getString("outcome"))
        .put("detail", detail instanceof JsonObject json ? json : new JsonObject())
        .put("requestId", row.getString("request_id"));
  }
}
