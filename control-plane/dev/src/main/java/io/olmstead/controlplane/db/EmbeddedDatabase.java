package io.olmstead.controlplane.db;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real PostgreSQL server run from zonky's binaries, for dev mode; its data lives in a directory
 * that survives restarts.
 */
public final class EmbeddedDatabase implements AutoCloseable {
  /**
   * Where dev keeps the database and its password inside the data directory (all that {@code
   * --fresh} deletes).
   */
  public static final String PG_DIR = "pg";

  public static final String PASSWORD_FILE = DevPassword.FILE;
  private final EmbeddedPostgres postgres;
  private final DatabaseSettings settings;

  // Written at every start: the dev database takes only password (SCRAM) logins, and only from this
  // machine.
  private static final String HBA =
      """
      # written by 'olmstead dev' at every start: password logins from this machine only
      local all all scram-sha-256
      host all all 127.0.0.1/32 scram-sha-256
      host all all ::1/128 scram-sha-256
      """;

  private EmbeddedDatabase(EmbeddedPostgres postgres, String password) {
    this.postgres = postgres;
    this.settings =
        new DatabaseSettings("127.0.0.1", postgres.getPort(), "postgres", "postgres", password);
  }

  /**
   * Starts PostgreSQL with its data under {@code dataDir/pg} (blocking: call from a worker thread
   * or main), listening on 127.0.0.1 only, its superuser protected by the password kept in {@code
   * dataDir/pg-password} (0600).
   */
  public static EmbeddedDatabase start(Path dataDir) {
    Path pgData = dataDir.resolve(PG_DIR);
    try {
      Files.createDirectories(dataDir);
      DevPassword.Loaded password = DevPassword.load(dataDir);
      // a directory from before passwords were set still trusts every local login: it gets the
      // password below
      boolean unprotected = password.created() && Files.exists(pgData.resolve("postgresql.conf"));
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(pgData)
              .setCleanDataDirectory(false)
              .setPort(freePort())
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("password_encryption", "scram-sha-256")
              .setServerConfig("max_connections", "200")
              .setServerConfig("fsync", "off")
              .setServerConfig("synchronous_commit", "off")
              // initdb (first start only) sets the superuser's password and password
              // authentication; zonky's
              // own readiness probe logs in with the same password
              .setLocaleConfig("auth", "scram-sha-256")
              .setLocaleConfig("pwfile", password.file().toString())
              .setConnectConfig("password", password.password())
              .start();
      try {
        protect(postgres, pgData, password.password(), unprotected);
      } catch (IOException | SQLException | RuntimeException e) {
        postgres.close();
        throw e;
      }
      return new EmbeddedDatabase(postgres, password.password());
    } catch (IOException | SQLException | RuntimeException e) {
      throw new StartupException(
          "cannot start the embedded PostgreSQL in "
              + pgData
              + ": "
              + rootMessage(e)
              + " (a PostgreSQL left behind by a 'dev' that was killed is stopped by this attempt: start again; if it"
              + " keeps failing, see the log in "
              + pgData
              + "; --fresh starts over and deletes the database)",
          e);
    }
  }

  private static void protect(
      EmbeddedPostgres postgres, Path pgData, String password, boolean setPassword)
      throws IOException, SQLException {
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      if (setPassword) {
        s.execute("ALTER ROLE postgres PASSWORD '" + password + "'");
      }
      Path hba = pgData.resolve("pg_hba.conf");
      if (!HBA.equals(Files.readString(hba))) {
        Files.writeString(hba, HBA);
        s.execute("SELECT pg_reload_conf()");
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null
        ? root.getClass().getSimpleName()
        : root.getMessage().lines().findFirst().orElse("");
  }

  public DatabaseSettings settings() {
    return settings;
  }

  @Override
  public void close() throws IOException {
    postgres.close();
  }
}
