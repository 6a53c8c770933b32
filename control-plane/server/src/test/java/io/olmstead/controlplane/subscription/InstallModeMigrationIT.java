package io.olmstead.controlplane.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Subscriptions stored before install modes existed keep the meaning their target namespaces had
 * (V37).
 */
class InstallModeMigrationIT {

  @Test
  void storedSubscriptionsGetTheModeTheirTargetsMeant() throws SQLException {
    DatabaseSettings db = TestDatabase.createEmpty(InstallModeMigrationIT.class);
    Flyway.configure()
        .dataSource(db.jdbcUrl(), db.user(), db.password())
        .locations(Migrations.LOCATION)
        .target("35")
        .load()
        .migrate(); // the schema before V36/V37
    TestDatabase.execute(db, "INSERT INTO catalogs (name) VALUES ('community')");
    TestDatabase.execute(
        db,
        "INSERT INTO subscriptions (name, catalog, package, namespace, target_namespaces, "
            + "version_kind, version_value, approval, created_by) VALUES "
            + "('none', 'community', 'p', 'ops', '{}', 'follow', 'channel', 'Automatic', 't'), "
            + "('own', 'community', 'p', 'ops', '{ops}', 'follow', 'channel', 'Automatic', 't'), "
            + "('single', 'community', 'p', 'ops', '{team-a}', 'follow', 'channel', 'Automatic', 't'), "
            + "('multi', 'community', 'p', 'ops', '{team-a,team-b}', 'follow', 'channel', 'Automatic', 't')");

    Migrations.migrate(db);

    Map<String, String> modes = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement s = c.createStatement();
        ResultSet rows =
            s.executeQuery("SELECT name, install_mode FROM subscriptions ORDER BY name")) {
      while (rows.next()) {
        modes.put(rows.getString(1), rows.getString(2));
      }
    }
    assertThat(modes)
        .containsExactly(
            Map.entry("multi", "MultiNamespace"),
            Map.entry("none", "OwnNamespace"),
            Map.entry("own", "OwnNamespace"),
            Map.entry("single", "SingleNamespace"));
  }
}
