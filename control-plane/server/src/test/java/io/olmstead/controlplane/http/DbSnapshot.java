package io.olmstead.controlplane.http;

import io.olmstead.controlplane.config.DatabaseSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Row count and content hash of every table in the public schema, to prove a request changed
 * nothing. The replicas' own bookkeeping, written at moments of their own and never by a request,
 * is left out: {@code leader_epochs} (bumped whenever a replica takes a lock) and {@code
 * gateway_replicas} (each replica's presence lease, renewed every tick).
 */
public final class DbSnapshot {
  private DbSnapshot() {}

  public static Map<String, String> of(DatabaseSettings db) {
    Map<String, String> tables = new TreeMap<>();
    try (Connection connection =
            DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement statement = connection.createStatement()) {
      List<String> names = new ArrayList<>();
      try (ResultSet rs =
          statement.executeQuery(
              "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                  + "AND tablename NOT IN ('leader_epochs', 'gateway_replicas')")) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
      for (String name : names) {
        try (ResultSet rs =
            statement.executeQuery(
                "SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' "
                    + "ORDER BY t::text)), '') FROM \""
                    + name
                    + "\" t")) {
          rs.next();
          tables.put(name, rs.getString(1));
        }
      }
      return tables;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot snapshot the database", e);
    }
  }
}
