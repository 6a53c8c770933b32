package io.olmstead.controlplane.analysis;

import io.olmstead.controlplane.config.PrometheusSettings;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Asks the configured Prometheus to parse queries before they are stored (an instant query with the
 * placeholders replaced by sample values). A query it refuses ({@code bad_data}) is a 422 naming
 * the field with Prometheus's message (at most 512 characters); without a Prometheus, or when it
 * does not answer in time, the queries are accepted and {@link Result#notChecked()} says why.
 */
public final class QueryCheck {
  private QueryCheck() {}

  /** Why some query could not be checked (null: every query was parsed by Prometheus). */
  public record Result(String notChecked) {}

  /**
   * Checks {@code queries} (a null entry is skipped); {@code field} names the field of the query at
   * an index. Fails with one 422 listing every refused query.
   */
  public static Future<Result> check(
      PrometheusClient prometheus, List<String> queries, IntFunction<String> field) {
    if (queries.stream().allMatch(q -> q == null)) {
      return Future.succeededFuture(new Result(null));
    }
    if (!prometheus.configured()) {
      return Future.succeededFuture(
          new Result("no Prometheus is configured (" + PrometheusSettings.URL + ")"));
    }
    List<Future<QueryOutcome>> answers = new ArrayList<>();
    for (String q : queries) {
      answers.add(
          q == null
              ? Future.succeededFuture(new QueryOutcome.Samples(List.of()))
              : prometheus.validate(q));
    }
    return Future.all(answers)
        .map(
            all -> {
              JsonArray errors = new JsonArray();
              String notChecked = null;
              for (int i = 0; i < answers.size(); i++) {
                QueryOutcome outcome = answers.get(i).result();
                if (outcome instanceof QueryOutcome.Refused r) {
                  errors.add(
                      new JsonObject()
                          .put("field", field.apply(i))
                          .put(
                              "message", "Prometheus cannot parse the " + "query: " + r.message()));
                } else if (outcome instanceof QueryOutcome.Unavailable u && notChecked == null) {
                  notChecked =
                      "Prometheus did not answer (" + PromResponse.bounded(u.reason()) + ")";
                }
              }
              if (!errors.isEmpty()) {
                throw ApiException.validationFailed(
                    "Prometheus refused " + errors.size() + " analysis queries", errors);
              }
              return new Result(notChecked);
            });
  }
}
