package io.olmstead.controlplane.fleet;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.selector.LabelSelector;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import java.util.List;

/**
 * {@code GET /fleet/summary} (per subscription, a page of them: clusters by version and phase, the
 * latest failures with the agent's reason and message) and {@code GET /fleet/clusters-by-label}
 * (clusters by a label's value and connection state): what the dashboard's Fleet page draws,
 * counted by the database.
 */
public final class FleetModule implements ApiModule {
  private static final int DEFAULT_FAILURES = 5;
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "getFleetSummary", this::summary);
    ApiModule.bind(builder, "getFleetClustersByLabel", this::byLabel);
  }

  private Future<Reply> summary(ApiRequest request) {
    LabelSelector selector = selector(request);
    String after = request.cursor().map(c -> Cursors.decode(c, 1).getString(0)).orElse(null);
    int limit = request.limit();
    int failures = request.query("failures").map(Integer::parseInt).orElse(DEFAULT_FAILURES);
    String[] teams = request.principal().teamFilter();
    return context
        .tx()
        .read(conn -> FleetQueries.subscriptions(conn, teams, after, limit + 1))
        .compose(
            subs -> {
              List<FleetQueries.Sub> page = subs.size() > limit ? subs.subList(0, limit) : subs;
              String next =
                  subs.size() > limit
                      ? Cursors.encode(new JsonArray().add(page.get(limit - 1).name()))
                      : null;
              String[] names = page.stream().map(FleetQueries.Sub::name).toArray(String[]::new);
              // independent reads, each on its own connection: the answer waits for the slower, not
              // for their sum
              Future<RowSet<Row>> counts =
                  context.tx().read(conn -> FleetQueries.counts(conn, names, teams, selector));
              Future<RowSet<Row>> failed =
                  context
                      .tx()
                      .read(conn -> FleetQueries.failures(conn, names, teams, selector, failures));
              return Future.all(counts, failed)
                  .map(
                      both ->
                          new JsonObject()
                              .put(
                                  "items",
                                  FleetQueries.summary(
                                      page,
                                      new FleetQueries.Found(counts.result(), failed.result())))
                              .put("nextCursor", next));
            })
        .map(Reply::ok);
  }

  private Future<Reply> byLabel(ApiRequest request) {
    LabelSelector selector = selector(request);
    String label = request.query("label").orElse("");
    try {
      // a label key is what a selector's existence test takes: the same syntax, checked the same
      // way
      LabelSelector.parse(label);
      if (label.isEmpty() || !label.matches("[A-Za-z0-9./_-]+")) {
        throw new LabelSelector.SelectorException("not a label key: " + label);
      }
    } catch (LabelSelector.SelectorException e) {
      throw ApiException.badRequest("invalid label: " + e.getMessage(), "query.label");
    }
    String[] teams = request.principal().teamFilter();
    return context
        .tx()
        .read(conn -> FleetQueries.byLabel(conn, label, teams, selector))
        .map(Reply::ok);
  }

  static LabelSelector selector(ApiRequest request) {
    try {
      return LabelSelector.parse(request.query("selector").orElse(""));
    } catch (LabelSelector.SelectorException e) {
      throw ApiException.badRequest("invalid label selector: " + e.getMessage(), "query.selector");
    }
  }
}
