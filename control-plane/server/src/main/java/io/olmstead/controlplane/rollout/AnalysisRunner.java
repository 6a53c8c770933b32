package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.analysis.AnalysisVerdicts;
import io.olmstead.controlplane.analysis.AnalysisVerdicts.Measurement;
import io.olmstead.controlplane.analysis.AnalysisVerdicts.Status;
import io.olmstead.controlplane.analysis.AnalysisVerdicts.Tally;
import io.olmstead.controlplane.analysis.PromQl;
import io.olmstead.controlplane.analysis.PrometheusClient;
import io.olmstead.controlplane.rollout.AnalysisView.Due;
import io.olmstead.controlplane.rollout.AnalysisView.Entry;
import io.olmstead.controlplane.rollout.AnalysisView.Key;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O of analysis checks on the engine's leader: before each step, reads what was measured
 * ({@link AnalysisView}) and starts the measurements that are due without waiting for them (a slow
 * or hung Prometheus never holds the engine's step; an answer is written when it comes, bounded by
 * the client's timeout and counted at the next step).
 */
final class AnalysisRunner {
  private static final Logger LOG = LoggerFactory.getLogger(AnalysisRunner.class);
  private static final String ROWS =
      "SELECT wave, check_name, cluster, successes, failures, inconclusives, status, "
          + "query, last_value, last_reason, measured_at FROM rollout_analysis WHERE rollout_id = $1";
  private static final String SUBSCRIPTION =
      "SELECT package, namespace FROM subscriptions WHERE name = $1";
  // written only over the tally it was measured from: a second writer (a deposed leader) changes
  // nothing
  private static final String UPSERT =
      "INSERT INTO rollout_analysis (rollout_id, wave, check_name, cluster, "
          + "successes, failures, inconclusives, status, query, last_value, last_reason, measured_at) VALUES ($1, $2, $3, "
          + "$4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (rollout_id, wave, check_name, cluster) DO UPDATE SET "
          + "successes = EXCLUDED.successes, failures = EXCLUDED.failures, inconclusives = EXCLUDED.inconclusives, "
          + "status = EXCLUDED.status, query = EXCLUDED.query, last_value = EXCLUDED.last_value, "
          + "last_reason = EXCLUDED.last_reason, measured_at = EXCLUDED.measured_at WHERE rollout_analysis.successes "
          + "+ rollout_analysis.failures + rollout_analysis.inconclusives = $13";

  /** Resuming a rollout runs its failed and inconclusive checks again from the start. */
  static final String RESET =
      "DELETE FROM rollout_analysis WHERE rollout_id = $1 "
          + "AND status IN ('Failed', 'Inconclusive')";

  private final PrometheusClient prometheus;
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

  AnalysisRunner(PrometheusClient prometheus) {
    this.prometheus = prometheus;
  }

  /** What was measured for {@code r}; starts the measurements due at {@code now}. */
  Future<AnalysisView> prepare(Pool pool, Rollout r, Instant now) {
    AnalysisPolicy policy = r.strategy().analysis();
    if (policy.checks().isEmpty()) {
      return Future.succeededFuture(AnalysisView.NONE);
    }
    return pool.preparedQuery(ROWS)
        .execute(Tuple.of(r.id()))
        .map(
            rows -> {
              Map<Key, Entry> entries = new HashMap<>();
              for (Row row : rows) {
                entries.put(
                    new Key(
                        row.getInteger("wave"),
                        row.getString("check_name"),
                        row.getString("cluster")),
                    new Entry(
                        Status.valueOf(row.getString("status").toUpperCase(Locale.ROOT)),
                        new Tally(
                            row.getInteger("successes"),
                            row.getInteger("failures"),
                            row.getInteger("inconclusives")),
                        row.getDouble("last_value"),
                        row.getString("last_reason"),
                        row.getString("query"),
                        row.getOffsetDateTime("measured_at").toInstant()));
              }
              List<Due> due =
                  AnalysisView.due(r, entries, now).stream()
                      .filter(d -> !inFlight.contains(flightKey(r, d)))
                      .toList();
              if (!due.isEmpty()) {
                start(pool, r, due, now);
              }
              return new AnalysisView(policy, entries);
            });
  }

  private void start(Pool pool, Rollout r, List<Due> due, Instant now) {
    due.forEach(d -> inFlight.add(flightKey(r, d)));
    pool.preparedQuery(SUBSCRIPTION)
        .execute(Tuple.of(r.subscription()))
        .onComplete(
            ar -> {
              Row sub =
                  ar.succeeded() && ar.result().size() > 0 ? ar.result().iterator().next() : null;
              if (sub == null) {
                // without the subscription, $namespace and $package would be "" and match series
                // without those labels: skip
                // this round (nothing recorded), the next step measures again
                due.forEach(d -> inFlight.remove(flightKey(r, d)));
                LOG.warn(
                    "rollout {}: analysis not measured, subscription {} not read: {}",
                    r.id(),
                    r.subscription(),
                    ar.succeeded() ? "not found" : ar.cause().toString());
                return;
              }
              for (Due d : due) {
                Map<String, String> values =
                    Map.of(
                        "cluster",
                        d.key().cluster(),
                        "wave",
                        r.waves().get(d.key().wave()).name(),
                        "namespace",
                        String.valueOf(sub.getString("namespace")),
                        "package",
                        String.valueOf(sub.getString("package")));
                String query = PromQl.substitute(d.check().query(), values);
                prometheus
                    .query(query, now)
                    .compose(
                        outcome ->
                            save(
                                pool,
                                r,
                                d,
                                query,
                                AnalysisVerdicts.measure(d.check().successIf(), outcome),
                                now))
                    .onComplete(
                        done -> {
                          inFlight.remove(flightKey(r, d));
                          if (done.failed()) {
                            LOG.warn(
                                "rollout {} analysis {} on cluster {} not recorded: {}",
                                r.id(),
                                d.check().name(),
                                d.key().cluster(),
                                done.cause().toString());
                          }
                        });
              }
            });
  }

  private static Future<Void> save(
      SqlClient pool, Rollout r, Due d, String query, Measurement m, Instant now) {
    Tally tally = d.before().plus(m.result());
    Status status =
        AnalysisVerdicts.status(
            tally, d.check().count(), d.check().failureLimit(), d.check().inconclusiveLimit());
    String name = status.name().charAt(0) + status.name().substring(1).toLowerCase(Locale.ROOT);
    Double value = m.value() == null || !Double.isFinite(m.value()) ? null : m.value();
    return pool.preparedQuery(UPSERT)
        .execute(
            Tuple.tuple(
                    List.of(
                        r.id(),
                        d.key().wave(),
                        d.check().name(),
                        d.key().cluster(),
                        tally.successes(),
                        tally.failures(),
                        tally.inconclusives(),
                        name,
                        query))
                .addValue(value)
                .addValue(m.reason())
                .addValue(OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
                .addValue(d.before().measurements()))
        .mapEmpty();
  }

  private static String flightKey(Rollout r, Due d) {
    return r.id() + "/" + d.key().wave() + "/" + d.key().check() + "/" + d.key().cluster();
  }
}
