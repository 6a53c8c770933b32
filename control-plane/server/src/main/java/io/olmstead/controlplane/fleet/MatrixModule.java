package io.olmstead.controlplane.fleet;

import io.olmstead.controlplane.fleet.MatrixQueries.ClusterRow;
import io.olmstead.controlplane.fleet.MatrixQueries.Column;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.rollout.MatrixReasons;
import io.olmstead.controlplane.rollout.MatrixReasons.Cell;
import io.olmstead.controlplane.selector.LabelSelector;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.SqlConnection;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code GET /fleet/matrix}: a keyset page of clusters, each with the version, phase and (when not
 * at its target) the reason of each column subscription, for the dashboard's Matrix page and {@code
 * olmstead get matrix}.
 */
public final class MatrixModule implements ApiModule {
  private final Clock clock;
  private ApiContext context;

  public MatrixModule() {
    this(Clock.systemUTC());
  }

  public MatrixModule(Clock clock) {
    this.clock = clock;
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "getFleetMatrix", this::matrix);
  }

  /** What one request asks for, checked before any read. */
  private record Ask(
      LabelSelector selector,
      String[] names,
      String sort,
      String cursor,
      int limit,
      String[] teams) {}

  private Future<Reply> matrix(ApiRequest request) {
    Ask ask =
        new Ask(
            FleetModule.selector(request),
            names(request.query("subscriptions").orElse(null)),
            request.query("sort").orElse(null),
            request.cursor().orElse(null),
            request.limit(),
            request.principal().teamFilter());
    Instant now = clock.instant();
    return context
        .tx()
        .read(
            conn ->
                MatrixQueries.columns(conn, ask.teams(), ask.names())
                    .compose(columns -> page(conn, ask, ordered(columns, ask.names()), now)))
        .map(Reply::ok);
  }

  private static Future<JsonObject> page(
      SqlConnection conn, Ask ask, List<Column> columns, Instant now) {
    MatrixSort sort = MatrixSort.parse(ask.sort(), columns.stream().map(Column::name).toList());
    JsonArray after = ask.cursor() == null ? null : Cursors.decode(ask.cursor(), sort.cursorSize());
    if (after != null
        && (after.getValue(after.size() - 1) == null
            || sort.cursorSize() == 3
                && (after.getBoolean(0) == null || after.getString(1) == null))) {
      throw ApiException.badRequest("the cursor is not one this server issued", "query.cursor");
    }
    return MatrixQueries.rows(conn, ask.teams(), ask.selector(), sort, after, ask.limit() + 1)
        .compose(
            rows -> {
              List<ClusterRow> page =
                  rows.size() > ask.limit() ? rows.subList(0, ask.limit()) : rows;
              Future<List<Cell>> cells =
                  page.isEmpty() || columns.isEmpty()
                      ? Future.succeededFuture(List.of())
                      : MatrixQueries.cells(conn, page, columns);
              return cells.compose(
                  found ->
                      MatrixReasons.of(conn, found, now)
                          .map(
                              reasons ->
                                  new JsonObject()
                                      .put(
                                          "subscriptions",
                                          new JsonArray(
                                              columns.stream().map(Column::toJson).toList()))
                                      .put("items", MatrixView.items(page, found, reasons))
                                      .put(
                                          "nextCursor",
                                          rows.size() > ask.limit()
                                              ? Cursors.encode(page.get(page.size() - 1).cursor())
                                              : null)));
            });
  }

  /**
   * {@code subscriptions=a,b}: the names in order without repeats; more than 20 is a 400 naming the
   * parameter.
   */
  static String[] names(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    String[] names =
        Arrays.stream(text.split(",")).map(String::trim).distinct().toArray(String[]::new);
    if (names.length > MatrixQueries.MAX_COLUMNS) {
      throw ApiException.badRequest(
          "at most " + MatrixQueries.MAX_COLUMNS + " subscriptions per matrix, not " + names.length,
          "query.subscriptions");
    }
    return names;
  }

  /**
   * The columns in the order asked; a name the caller cannot see (or that does not exist) is a 400
   * naming it.
   */
  private static List<Column> ordered(List<Column> found, String[] names) {
    if (names == null) {
      return found;
    }
    Map<String, Column> byName =
        found.stream()
            .collect(Collectors.toMap(Column::name, c -> c, (a, b) -> a, LinkedHashMap::new));
    Set<String> missing =
        Arrays.stream(names)
            .filter(n -> !byName.containsKey(n))
            .collect(Collectors.toCollection(TreeSet::new));
    if (!missing.isEmpty()) {
      throw ApiException.badRequest(
          "no subscription " + String.join(", ", missing), "query.subscriptions");
    }
    return Arrays.stream(names).map(byName::get).toList();
  }
}
