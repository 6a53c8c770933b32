package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dev mode's embedded PostgreSQL takes password logins only, on loopback only, with a password kept
 * private.
 */
class EmbeddedDatabaseIT {

  @Test
  void refusesPasswordlessAndWrongPasswordLoginsAndKeepsItsPasswordPrivate(@TempDir Path data)
      throws Exception {
    try (EmbeddedDatabase database = EmbeddedDatabase.start(data)) {
      DatabaseSettings db = database.settings();
      assertRefused(db, null);
      assertRefused(db, "not-the-password");
      assertThat(query(db, db.password(), "SHOW listen_addresses")).isEqualTo("127.0.0.1");
      Path file = data.resolve(DevPassword.FILE);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");
      assertThat(Files.readString(file).trim())
          .isEqualTo(db.password())
          .hasSizeGreaterThanOrEqualTo(32);
    }
    try (EmbeddedDatabase again = EmbeddedDatabase.start(data)) {
      assertThat(query(again.settings(), again.settings().password(), "SELECT 'kept'"))
          .isEqualTo("kept");
      assertRefused(again.settings(), null);
    }
  }

  @Test
  void aDataDirectoryCreatedWithoutAPasswordGetsOne(@TempDir Path data) throws Exception {
    // what dev created before passwords: initdb -A trust, every local login accepted
    try (EmbeddedPostgres old =
        EmbeddedPostgres.builder()
            .setDataDirectory(data.resolve("pg"))
            .setCleanDataDirectory(false)
            .start()) {
      assertThat(old.getPostgresDatabase().getConnection().isValid(5)).isTrue();
    }
    try (EmbeddedDatabase database = EmbeddedDatabase.start(data)) {
      assertRefused(database.settings(), null);
      assertThat(query(database.settings(), database.settings().password(), "SELECT 'ok'"))
          .isEqualTo("ok");
    }
  }

  private static void assertRefused(DatabaseSettings db, String password) {
    assertThatThrownBy(() -> query(db, password, "SELECT 1"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("password");
  }

  private static String query(DatabaseSettings db, String password, String sql)
      throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", "postgres");
    if (password != null) {
      props.setProperty("password", password);
    }
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), props);
        ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
