package io.olmstead.controlplane.adoption;

import io.olmstead.controlplane.db.LeaderLock;
import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@code subscription_adoption} on the replica holding its advisory lock: every minute it
 * counts each subscription's clusters by installed version (the clusters of the subscription's team
 * only, as the status totals do) and writes a snapshot of a subscription only when its counts
 * changed since the last one it wrote, or a day passed (so the retention never deletes the snapshot
 * still in effect). Then it deletes rows older than the retention, {@link #PRUNE_BATCH} at a time,
 * at most {@link #PRUNE_BATCHES} batches a minute.
 */
public final class AdoptionSampler {
  /** The advisory lock key (an arbitrary constant: "olmsadop"). */
  static final long LOCK_KEY = 0x6f6c6d7361646f70L;

  public static final Duration RETENTION = Duration.ofDays(30);
  static final Duration REWRITE_AFTER = Duration.ofDays(1);
  static final int PRUNE_BATCH = 5000;
  static final int PRUNE_BATCHES = 10;
  private static final long PERIOD_MILLIS = 60_000;
  private static final Logger LOG = LoggerFactory.getLogger(AdoptionSampler.class);
  private static final String COUNTS =
      "SELECT s.name, s.team, coalesce(st.installed_version, 'none') AS version, "
          + "count(st.cluster) AS clusters FROM subscriptions s LEFT JOIN subscription_status st "
          + "ON st.subscription = s.name AND NOT st.gone AND (s.team IS NULL OR EXISTS (SELECT 1 FROM clusters c "
          + "WHERE c.name = st.cluster AND c.labels ->> '"
          + SubscriptionSpec.TEAM_LABEL
          + "' = s.team)) "
          + "GROUP BY 1, 2, 3";
  private static final String CLEAR =
      "DELETE FROM subscription_adoption WHERE subscription = $1 AND at = $2";
  private static final String INSERT =
      "INSERT INTO subscription_adoption (subscription, team, at, version, clusters) "
          + "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (subscription, at, version) DO UPDATE SET team = EXCLUDED.team, "
          + "clusters = EXCLUDED.clusters";
  private static final String PRUNE =
      "DELETE FROM subscription_adoption WHERE ctid = ANY(ARRAY(SELECT ctid FROM "
          + "subscription_adoption WHERE at < $1 LIMIT $2))";

  private final Vertx vertx;
  private final Pool pool;
  private final LeaderLock lock;
  private final Supplier<Instant> clock;

  /**
   * The last snapshot written per subscription by this replica (empty after a restart or a change
   * of leader).
   */
  private final Map<String, Snapshot> written = new ConcurrentHashMap<>();

  private long timer = -1;
  private boolean sampling;

  /** One subscription's counts by version, its team, and when they were written. */
  record Snapshot(String team, Map<String, Integer> counts, Instant at) {}

  public AdoptionSampler(
      Vertx vertx, Pool pool, PgConnectOptions connectOptions, Supplier<Instant> clock) {
    this.vertx = vertx;
    this.pool = pool;
    this.clock = clock;
    this.lock =
        new LeaderLock(
            vertx,
            connectOptions,
            LOCK_KEY,
            "adoption sampler",
            leader -> {
              if (!leader) {
                written.clear();
              }
            });
  }

  public void start() {
    timer = vertx.setPeriodic(1_000, PERIOD_MILLIS, id -> tick());
  }

  private void tick() {
    if (sampling) {
      return;
    }
    sampling = true;
    lock.ensure()
        .compose(
            leader ->
                leader
                    ? sampleAsLeader().compose(n -> prune()).mapEmpty()
                    : Future.succeededFuture())
        .onFailure(e -> LOG.warn("adoption sample failed: {}", e.toString()))
        .onComplete(ar -> sampling = false);
  }

  /** Whether this replica leads the sampling (takes the lock when free). */
  Future<Boolean> lead() {
    return lock.ensure();
  }

  /**
   * {@link #sampleNow()} as the leader does it: fenced, so a replica deposed without its knowing
   * writes nothing (fails with {@link LeaderLock.Deposed}) and steps down.
   */
  Future<Integer> sampleAsLeader() {
    return sample(lock::fence);
  }

  /**
   * Counts now and writes the snapshots that changed; answers how many subscriptions were written.
   */
  public Future<Integer> sampleNow() {
    return sample(conn -> Future.succeededFuture());
  }

  private Future<Integer> sample(Function<SqlConnection, Future<Void>> fence) {
    Instant at = clock.get().truncatedTo(ChronoUnit.MINUTES);
    return pool.withTransaction(
        conn ->
            fence
                .apply(conn)
                .compose(f -> conn.query(COUNTS).execute())
                .compose(
                    rows -> {
                      Map<String, Snapshot> now = new TreeMap<>();
                      for (Row row : rows) {
                        Snapshot s =
                            now.computeIfAbsent(
                                row.getString("name"),
                                k -> new Snapshot(row.getString("team"), new TreeMap<>(), at));
                        s.counts()
                            .put(row.getString("version"), row.getLong("clusters").intValue());
                      }
                      List<Snapshot> changed = new ArrayList<>();
                      List<String> names = new ArrayList<>();
                      now.forEach(
                          (name, s) -> {
                            Snapshot last = written.get(name);
                            if (last == null
                                || !Objects.equals(last.team(), s.team())
                                || !last.counts().equals(s.counts())
                                || !last.at().plus(REWRITE_AFTER).isAfter(at)) {
                              changed.add(s);
                              names.add(name);
                            }
                          });
                      return write(conn, names, changed, at)
                          .map(
                              v -> {
                                for (int i = 0; i < names.size(); i++) {
                                  written.put(names.get(i), changed.get(i));
                                }
                                written.keySet().retainAll(now.keySet());
                                return names.size();
                              });
                    }));
  }

  private static Future<Void> write(
      SqlConnection conn, List<String> names, List<Snapshot> snapshots, Instant at) {
    if (names.isEmpty()) {
      return Future.succeededFuture();
    }
    var when = at.atOffset(ZoneOffset.UTC);
    List<Tuple> clear = new ArrayList<>();
    List<Tuple> rows = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      Snapshot s = snapshots.get(i);
      clear.add(Tuple.of(name, when));
      s.counts().forEach((version, n) -> rows.add(Tuple.of(name, s.team(), when, version, n)));
    }
    // a second snapshot in the same minute replaces the first (a version gone since must not
    // linger)
    return conn.preparedQuery(CLEAR)
        .executeBatch(clear)
        .compose(v -> conn.preparedQuery(INSERT).executeBatch(rows))
        .mapEmpty();
  }

  /** Deletes rows older than the retention in batches; answers how many were deleted. */
  public Future<Integer> prune() {
    return prune(clock.get().minus(RETENTION), PRUNE_BATCH, PRUNE_BATCHES, 0);
  }

  Future<Integer> prune(Instant before, int batch, int batchesLeft, int deleted) {
    if (batchesLeft == 0) {
      return Future.succeededFuture(deleted);
    }
    return pool.preparedQuery(PRUNE)
        .execute(Tuple.of(before.atOffset(ZoneOffset.UTC), batch))
        .compose(
            rows -> {
              int n = rows.rowCount();
              return n < batch
                  ? Future.succeededFuture(deleted + n)
                  : prune(before, batch, batchesLeft - 1, deleted + n);
            });
  }

  public Future<Void> close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    return lock.release();
  }
}
