package io.olmstead.controlplane.rollout;

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
 * Test data for rollout ITs, written with plain JDBC: a catalog with an upgrade edge,
 * subscriptions, tokens.
 */
public final class RolloutFixtures {
  private final DatabaseSettings db;

  public RolloutFixtures(DatabaseSettings db) {
    this.db = db;
  }

  /** Catalog {@code demo}: package etcd, channel alpha, 0.9.2 then 0.9.4 (replaces 0.9.2). */
  public void catalog() {
    String digest = "sha256:" + "7".repeat(64);
    update("INSERT INTO catalogs (name) VALUES ('demo')");
    update(
        "INSERT INTO catalog_contents (digest, media_type, size_bytes, content) VALUES (?, "
            + "'application/x-ndjson', 2, ?)",
        digest,
        "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    update(
        "INSERT INTO catalog_revisions (catalog, revision, digest, validation, package_count, channel_count, "
            + "bundle_count, uploaded_by) VALUES ('demo', 1, ?, 'strict', 1, 1, 2, 'test')",
        digest);
    update(
        "INSERT INTO catalog_packages (catalog, revision, package, default_channel) VALUES ('demo', 1, 'etcd', "
            + "'alpha')");
    update(
        "INSERT INTO catalog_channels (catalog, revision, package, channel, head, entries) VALUES ('demo', 1, "
            + "'etcd', 'alpha', 'etcdoperator.v0.9.4', ?::jsonb)",
        "[{\"name\":\"etcdoperator.v0.9.2\"},"
            + "{\"name\":\"etcdoperator.v0.9.4\",\"replaces\":\"etcdoperator.v0.9.2\"}]");
    update(
        "INSERT INTO catalog_bundles (catalog, revision, package, bundle, version, channels) VALUES "
            + "('demo', 1, 'etcd', 'etcdoperator.v0.9.2', '0.9.2', '{alpha}'), "
            + "('demo', 1, 'etcd', 'etcdoperator.v0.9.4', '0.9.4', '{alpha}')");
    update("UPDATE catalogs SET current_revision = 1 WHERE name = 'demo'");
  }

  public void subscription(String name, String selector, String pin) {
    update(
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, version_kind, "
            + "version_value, approval, created_by) VALUES (?, 'demo', 'etcd', 'alpha', 'etcd', ?, 'pin', ?, "
            + "'Automatic', 'test')",
        name,
        selector,
        pin);
  }

  /** An enrollment token whose clusters get {@code labelsJson}. */
  public String enrollmentToken(int maxUses, String labelsJson) {
    String token = Tokens.generate("olm_enroll_");
    update(
        "INSERT INTO enrollment_tokens (token_hash, labels, max_uses, expires_at, created_by) "
            + "VALUES (?, ?::jsonb, ?, now() + interval '1 hour', 'test')",
        Tokens.hash(token),
        labelsJson,
        maxUses);
    return token;
  }

  public long count(String sql, Object... args) {
    return ((Number) query(sql, args).get(0).values().iterator().next()).longValue();
  }

  public int update(String sql, Object... args) {
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
