package io.olmstead.controlplane.clusters;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.selector.SelectorSql;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code GET /approvals}: every cluster whose agent reports a subscription waiting for a manual
 * approval ({@code RequiresApproval}, the bundle it waits for being that condition's message),
 * fleet-wide, by subscription and cluster, one page at a time, with the bundle approved there
 * already if any. Only clusters and subscriptions of the caller's teams; retired clusters never
 * take an approval and are left out (as {@code POST /approvals} does).
 */
public final class WaitingApprovals implements ApiModule {
  private static final String WAITING =
      "SELECT s.subscription, s.cluster, s.installed_version, s.updated_at, "
          + "c.labels, c.status, a.bundle AS approved, (SELECT e ->> 'message' FROM jsonb_array_elements(s.conditions) e "
          + "WHERE e ->> 'type' = 'RequiresApproval' LIMIT 1) AS bundle FROM subscription_status s "
          + "JOIN clusters c ON c.name = s.cluster JOIN subscriptions sub ON sub.name = s.subscription "
          + "LEFT JOIN cluster_approvals a ON a.cluster = s.cluster AND a.subscription = s.subscription "
          + "WHERE s.phase = 'RequiresApproval' AND NOT s.gone AND c.status <> 'retired' "
          + "AND ($1::text[] IS NULL OR (sub.team = ANY($1::text[]) AND c.labels ->> '"
          + Principal.TEAM_LABEL
          + "' = ANY($1::text[]))) AND ($2::text IS NULL OR s.subscription = $2) "
          + "AND ($3::text IS NULL OR (s.subscription, s.cluster) > ($3, $4::text)) AND %s "
          + "ORDER BY s.subscription, s.cluster LIMIT $5";
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "listWaitingApprovals", this::list);
  }

  private Future<Reply> list(ApiRequest request) {
    LabelSelector selector;
    try {
      selector = LabelSelector.parse(request.query("selector").orElse(""));
    } catch (LabelSelector.SelectorException e) {
      throw ApiException.badRequest("invalid label selector: " + e.getMessage(), "query.selector");
    }
    JsonArray after = request.cursor().map(c -> Cursors.decode(c, 2)).orElse(null);
    int limit = request.limit();
    SelectorSql sel = SelectorSql.of(selector, "c.labels", 6);
    List<Object> params =
        new ArrayList<>(
            Arrays.asList(
                new Object[] {
                  request.principal().teamFilter(),
                  request.query("subscription").orElse(null),
                  after == null ? null : after.getString(0),
                  after == null ? null : after.getString(1),
                  limit + 1
                }));
    params.addAll(sel.params());
    return context
        .tx()
        .read(
            conn ->
                conn.preparedQuery(String.format(WAITING, sel.sql()))
                    .execute(Tuple.wrap(params))
                    .map(
                        rows -> {
                          List<Row> list = new ArrayList<>();
                          rows.forEach(list::add);
                          return Cursors.page(
                              list,
                              limit,
                              WaitingApprovals::toJson,
                              r ->
                                  new JsonArray()
                                      .add(r.getString("subscription"))
                                      .add(r.getString("cluster")));
                        }))
        .map(Reply::ok);
  }

  private static JsonObject toJson(Row r) {
    return new JsonObject()
        .put("subscription", r.getString("subscription"))
        .put("cluster", r.getString("cluster"))
        .put("bundle", r.getString("bundle"))
        .put("approvedBundle", r.getString("approved"))
        .put("installedVersion", r.getString("installed_version"))
        .put("clusterStatus", r.getString("status"))
        .put("labels", r.getJsonObject("labels"))
        .put("since", r.getOffsetDateTime("updated_at").toInstant().toString());
  }
}
