package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.config.DatabaseSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test data for agent-channel ITs, written with plain JDBC (the REST surface is tested elsewhere).
 */
final class ChannelFixtures {
  static final String DIGEST_1 = "sha256:" + "1".repeat(64);
  static final String DIGEST_2 = "sha256:" + "2".repeat(64);

  private final DatabaseSettings db;

  ChannelFixtures(DatabaseSettings db) {
    this.db = db;
  }

  /** Creates an enrollment token and returns its secret. */
  String enrollmentToken(int maxUses, int ttlSeconds, String labelsJson, String boundName) {
    String token = Tokens.generate("olm_enroll_");
    update(
        "INSERT INTO enrollment_tokens (token_hash, labels, cluster_name, max_uses, expires_at, created_by) "
            + "VALUES (?, ?::jsonb, ?, ?, now() + make_interval(secs => ?), 'test')",
        Tokens.hash(token),
        labelsJson,
        boundName,
        maxUses,
        (double) ttlSeconds);
    return token;
  }

  /**
   * Catalog {@code demo} with package etcd, channel alpha, versions 0.9.2 and 0.9.4 (content = the
   * given text).
   */
  void catalog(String digest, String content) {
    update("INSERT INTO catalogs (name) VALUES ('demo') ON CONFLICT DO NOTHING");
    update(
        "INSERT INTO catalog_contents (digest, media_type, size_bytes, content) VALUES (?, 'application/x-ndjson', "
            + "?, ?)",
        digest,
        content.length(),
        content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    int revision =
        ((Number)
                query(
                        "SELECT coalesce(max(revision), 0) + 1 AS r FROM catalog_revisions "
                            + "WHERE catalog = 'demo'")
                    .get(0)
                    .get("r"))
            .intValue();
    update(
        "INSERT INTO catalog_revisions (catalog, revision, digest, validation, package_count, channel_count, "
            + "bundle_count, uploaded_by) VALUES ('demo', ?, ?, 'strict', 1, 1, 2, 'test')",
        revision,
        digest);
    update(
        "INSERT INTO catalog_packages (catalog, revision, package, default_channel) VALUES ('demo', ?, 'etcd', "
            + "'alpha')",
        revision);
    update(
        "INSERT INTO catalog_channels (catalog, revision, package, channel, head, entries) VALUES ('demo', ?, "
            + "'etcd', 'alpha', 'etcdoperator.v0.9.4', '[]'::jsonb)",
        revision);
    update(
        "INSERT INTO catalog_bundles (catalog, revision, package, bundle, version, channels) VALUES "
            + "('demo', ?, 'etcd', 'etcdoperator.v0.9.2', '0.9.2', '{alpha}'), "
            + "('demo', ?, 'etcd', 'etcdoperator.v0.9.4', '0.9.4', '{alpha}')",
        revision,
        revision);
    update("UPDATE catalogs SET current_revision = ? WHERE name = 'demo'", revision);
  }

  void subscription(String name, String selector, String pin) {
    update(
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, version_kind, "
            + "version_value, approval, created_by) VALUES (?, 'demo', 'etcd', 'alpha', 'etcd', ?, 'pin', ?, 'Automatic', "
            + "'test')",
        name,
        selector,
        pin);
  }

  /**
   * Catalog {@code demo} and subscriptions of it placed on every cluster {@link Enroll#cluster}
   * creates (region=eu): the gateway stores status only for subscriptions placed on the reporting
   * cluster.
   */
  void placedEverywhere(String... subscriptions) {
    catalog(DIGEST_1, "{}");
    for (String name : subscriptions) {
      subscription(name, "region=eu", "0.9.2");
    }
  }

  void pin(String subscription, String version) {
    update(
        "UPDATE subscriptions SET version_value = ?, generation = generation + 1, "
            + "resource_version = resource_version + 1 WHERE name = ?",
        version,
        subscription);
  }

  void labels(String cluster, String labelsJson) {
    update(
        "UPDATE clusters SET labels = ?::jsonb, resource_version = resource_version + 1 WHERE name = ?",
        labelsJson,
        cluster);
  }

  String clusterStatus(String cluster) {
    List<Map<String, Object>> rows = query("SELECT status FROM clusters WHERE name = ?", cluster);
    return rows.isEmpty() ? null : (String) rows.get(0).get("status");
  }

  List<Map<String, Object>> status(String cluster) {
    return query(
        "SELECT subscription, installed_version, target_version, phase, seq, gone FROM subscription_status "
            + "WHERE cluster = ? ORDER BY subscription",
        cluster);
  }

  int update(String sql, Object... args) {
    try (Connection c = connect();
        PreparedStatement st = c.prepareStatement(sql)) {
      bind(st, args);
      return st.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  List<Map<String, Object>> query(String sql, Object... args) {
    try (Connection c = connect();
        PreparedStatement st = c.prepareStatement(sql)) {
      bind(st, args);
      List<Map<String, Object>> out = new ArrayList<>();
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          Map<String, Object> row = new LinkedHashMap<>();
          for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
          }
          out.add(row);
        }
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
  }

  private static void bind(PreparedStatement st, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      st.setObject(i + 1, args[i]);
    }
  }
}
