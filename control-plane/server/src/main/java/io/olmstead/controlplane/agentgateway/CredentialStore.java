package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.auth.Tokens;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Per-cluster agent credentials: issued once at enrollment, stored only as SHA-256, revocable. */
public final class CredentialStore {
  static final String PREFIX = "olm_cluster_";

  private static final String AUTHENTICATE =
      "SELECT cluster FROM cluster_credentials WHERE credential_hash = $1 AND revoked_at IS NULL";
  // a connection's place in the order of all agent sessions, taken as it is authenticated: a later
  // connection of the cluster always has a higher one, whatever the replicas' clocks say
  private static final String OPEN =
      "SELECT cluster, nextval('agent_session_order') FROM cluster_credentials "
          + "WHERE credential_hash = $1 AND revoked_at IS NULL";
  private static final String ISSUE =
      "INSERT INTO cluster_credentials (cluster, credential_hash, enrolled_with) VALUES ($1, $2, $3) "
          + "ON CONFLICT (cluster) DO UPDATE SET credential_hash = EXCLUDED.credential_hash, "
          + "enrolled_with = EXCLUDED.enrolled_with, created_at = now(), revoked_at = NULL";
  private static final String STILL_VALID =
      "SELECT cluster, credential_hash FROM cluster_credentials WHERE cluster = ANY($1) AND revoked_at IS NULL";
  private static final String REVOKE =
      "UPDATE cluster_credentials SET revoked_at = now() WHERE cluster = $1 AND revoked_at IS NULL";

  private final Pool pool;

  public CredentialStore(Pool pool) {
    this.pool = pool;
  }

  /** The cluster a presented credential belongs to, if it is live. */
  Future<Optional<String>> authenticate(String credential) {
    return pool.preparedQuery(AUTHENTICATE)
        .execute(Tuple.of(Buffer.buffer(Tokens.hash(credential))))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(rows.iterator().next().getString(0)));
  }

  /** The cluster of an agent connection with a live credential, and the connection's order. */
  record Opened(String cluster, long order) {}

  /**
   * Authenticates an agent's connection: its cluster and its session order (higher for every later
   * connection), if the credential is live.
   */
  Future<Optional<Opened>> open(String credential) {
    return pool.preparedQuery(OPEN)
        .execute(Tuple.of(Buffer.buffer(Tokens.hash(credential))))
        .map(
            rows -> {
              if (rows.size() == 0) {
                return Optional.empty();
              }
              Row row = rows.iterator().next();
              return Optional.of(new Opened(row.getString(0), row.getLong(1)));
            });
  }

  /**
   * Issues a fresh credential for a cluster inside the caller's transaction, replacing any earlier
   * one.
   */
  public static Future<String> issue(SqlClient tx, String cluster, String enrolledWith) {
    return issueAll(tx, List.of(cluster), enrolledWith)
        .map(credentials -> credentials.get(cluster));
  }

  /**
   * Issues a fresh credential for each cluster inside the caller's transaction, the statements sent
   * as one batch (one round trip); the result maps each cluster to its credential (the caller's
   * order).
   */
  public static Future<Map<String, String>> issueAll(
      SqlClient tx, List<String> clusters, String enrolledWith) {
    if (clusters.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    Map<String, String> credentials = new LinkedHashMap<>();
    List<Tuple> rows = new ArrayList<>(clusters.size());
    for (String cluster : clusters) {
      String credential = Tokens.generate(PREFIX);
      credentials.put(cluster, credential);
      rows.add(Tuple.of(cluster, Buffer.buffer(Tokens.hash(credential)), enrolledWith));
    }
    return tx.preparedQuery(ISSUE).executeBatch(rows).map(credentials);
  }

  /**
   * Revokes a cluster's credential inside the caller's transaction; true when one was live. At
   * commit the {@code cluster_credentials} trigger notifies every replica, and the one holding the
   * connection closes it.
   */
  public static Future<Boolean> revoke(SqlClient tx, String cluster) {
    return tx.preparedQuery(REVOKE).execute(Tuple.of(cluster)).map(rows -> rows.rowCount() > 0);
  }

  /**
   * Of the given (cluster, credential hash) pairs, the clusters whose credential is no longer the
   * live one.
   */
  Future<Set<String>> revokedAmong(Collection<Held> held) {
    if (held.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    List<String> clusters = new ArrayList<>();
    held.forEach(h -> clusters.add(h.cluster()));
    Tuple args = Tuple.tuple().addArrayOfString(clusters.toArray(String[]::new));
    return pool.preparedQuery(STILL_VALID)
        .execute(args)
        .map(
            rows -> {
              Set<String> live = new HashSet<>();
              for (Row row : rows) {
                live.add(row.getString(0) + '|' + hex(row.getBuffer(1).getBytes()));
              }
              Set<String> revoked = new HashSet<>();
              held.stream()
                  .filter(h -> !live.contains(h.cluster() + '|' + hex(h.hash())))
                  .forEach(h -> revoked.add(h.cluster()));
              return revoked;
            });
  }

  static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return out.toString();
  }

  /** A credential a connection was opened with. */
  record Held(String cluster, byte[] hash) {}
}
