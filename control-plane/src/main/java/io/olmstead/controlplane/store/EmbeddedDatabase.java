package io.olmstead.controlplane.store;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** A real PostgreSQL server run from zonky's binaries, for dev mode; its data lives in a directory that survives restarts. */
public final class EmbeddedDatabase implements AutoCloseable {
  private final EmbeddedPostgres postgres;
  private final DatabaseSettings settings;

  private EmbeddedDatabase(EmbeddedPostgres postgres) {
    this.postgres = postgres;
    this.settings = new DatabaseSettings("127.0.0.1", postgres.getPort(), "postgres", "postgres", null);
  }

  /** Starts PostgreSQL with its data under {@code dataDir/pg} (blocking: call from a worker thread or main). */
  public static EmbeddedDatabase start(Path dataDir) {
    Path pgData = dataDir.resolve("pg");
    try {
      Files.createDirectories(dataDir);
      EmbeddedPostgres postgres = EmbeddedPostgres.builder()
          .setDataDirectory(pgData)
          .setCleanDataDirectory(false)
          .setPort(freePort())
          .setServerConfig("max_connections", "200")
          .setServerConfig("fsync", "off")
          .setServerConfig("synchronous_commit", "off")
          .start();
      return new EmbeddedDatabase(postgres);
    } catch (IOException | RuntimeException e) {
      throw new StartupException("cannot start the embedded PostgreSQL in " + pgData + ": " + rootMessage(e)
          + " (is another 'dev' running on this --data-dir? use --fresh to start over)", e);
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
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage().lines().findFirst()
        .orElse("");
  }

  public DatabaseSettings settings() {
    return settings;
  }

  @Override
  public void close() throws IOException {
    postgres.close();
  }
}
