package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.analysis.AnalysisCheck;
import io.olmstead.controlplane.analysis.AnalysisTemplateStore;
import io.olmstead.controlplane.analysis.PrometheusClient;
import io.olmstead.controlplane.analysis.QueryCheck;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import java.util.ArrayList;
import java.util.List;

/**
 * A new rollout's analysis checks: inline queries are checked by the configured Prometheus (a query
 * it cannot parse is a 422 naming the field; without a Prometheus, or when it does not answer, they
 * are accepted), and checks naming a template get that template's query, condition, timing and
 * limits (the rollout's team's template, else the fleet-wide one; none: 422 naming the field).
 */
final class AnalysisChecks {
  private final PrometheusClient prometheus;
  private final AnalysisTemplateStore templates = new AnalysisTemplateStore();

  AnalysisChecks(PrometheusClient prometheus) {
    this.prometheus = prometheus;
  }

  /**
   * The inline queries a team-scoped caller may not send, as one 422 (null: none). The control
   * plane's Prometheus answers with every team's series and a check's value is shown in the
   * rollout's history, events and webhooks, so a team's rollout measures only through templates
   * (written by a fleet admin) that name their own selectors.
   */
  static ApiException inlineQueriesOfATeam(RolloutStrategy strategy, boolean teamScoped) {
    return inlineQueriesOfATeam(strategy, teamScoped, "/strategy");
  }

  /**
   * As {@link #inlineQueriesOfATeam(RolloutStrategy, boolean)}, the fields named under {@code
   * pointer}.
   */
  static ApiException inlineQueriesOfATeam(
      RolloutStrategy strategy, boolean teamScoped, String pointer) {
    JsonArray errors = new JsonArray();
    List<AnalysisCheck> checks = strategy.analysis().checks();
    for (int i = 0; teamScoped && i < checks.size(); i++) {
      if (checks.get(i).templateName() == null) {
        errors.add(
            new JsonObject()
                .put("field", pointer + "/analysis/" + i + "/query")
                .put(
                    "message",
                    "a team-scoped token may not send an inline query (Prometheus answers it with every team's series): "
                        + "name a template with templateName"));
      }
    }
    return errors.isEmpty()
        ? null
        : ApiException.validationFailed(
            "analysis checks of a team's rollout name " + "templates", errors);
  }

  /** Asks Prometheus to parse each inline query; fails with a 422 listing those it refused. */
  Future<Void> validate(RolloutStrategy strategy) {
    return validate(strategy, "/strategy");
  }

  /** As {@link #validate(RolloutStrategy)}, the fields named under {@code pointer}. */
  Future<Void> validate(RolloutStrategy strategy, String pointer) {
    List<String> queries =
        strategy.analysis().checks().stream()
            .map(c -> c.templateName() == null ? c.query() : null)
            .toList();
    if (queries.stream().allMatch(q -> q == null)) {
      return Future.succeededFuture();
    }
    return QueryCheck.check(prometheus, queries, i -> pointer + "/analysis/" + i + "/query")
        .mapEmpty();
  }

  /**
   * The strategy with every template reference resolved for a rollout of {@code team} (null: no
   * team).
   */
  Future<RolloutStrategy> resolve(SqlClient conn, RolloutStrategy strategy, String team) {
    return resolve(conn, strategy, team, "/strategy");
  }

  /**
   * As {@link #resolve(SqlClient, RolloutStrategy, String)}, the fields named under {@code
   * pointer}.
   */
  Future<RolloutStrategy> resolve(
      SqlClient conn, RolloutStrategy strategy, String team, String pointer) {
    List<AnalysisCheck> checks = strategy.analysis().checks();
    if (checks.stream().allMatch(c -> c.templateName() == null)) {
      return Future.succeededFuture(strategy);
    }
    List<Future<AnalysisCheck>> resolved = new ArrayList<>();
    for (int i = 0; i < checks.size(); i++) {
      AnalysisCheck c = checks.get(i);
      String field = pointer + "/analysis/" + i + "/templateName";
      resolved.add(
          c.templateName() == null
              ? Future.succeededFuture(c)
              : templates
                  .forRollout(conn, team, c.templateName())
                  .map(
                      found ->
                          c.withTemplate(
                              found
                                  .orElseThrow(
                                      () ->
                                          ApiException.validationFailed(
                                              "analysis template "
                                                  + c.templateName()
                                                  + " does not exist",
                                              new JsonArray()
                                                  .add(
                                                      new JsonObject()
                                                          .put("field", field)
                                                          .put(
                                                              "message",
                                                              "analysis template "
                                                                  + c.templateName()
                                                                  + " does not exist"))))
                                  .check())));
    }
    return Future.all(resolved)
        .map(
            all ->
                strategy.withAnalysis(
                    new AnalysisPolicy(resolved.stream().map(Future::result).toList())));
  }
}
