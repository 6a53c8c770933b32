package io.olmstead.controlplane.testsupport;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * A real PostgreSQL server for tests, and a fresh database on it for each test class: {@code
 * OLMSTEAD_TEST_PG_URL} when set (a URL whose user may create databases), else Testcontainers when
 * a Docker engine answers, else zonky's embedded PostgreSQL. The server is started once per JVM.
 * Migrations run once per JVM, on a template database that each test class's database is copied
 * from ({@code CREATE DATABASE ... TEMPLATE}), so a class starts on a migrated schema in a fraction
 * of the time Flyway takes to build it.
 */
public final class TestDatabase {
  private static final Logger LOG = LoggerFactory.getLogger(TestDatabase.class);
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static DatabaseSettings server;
  private static String template;

  private TestDatabase() {}

  /**
   * A new database named after the test class, with every packaged migration applied (copied from a
   * template migrated once per JVM; the control plane finds nothing left to apply).
   */
  public static DatabaseSettings create(Class<?> testClass) {
    return copyOf(migratedTemplate(), testClass);
  }

  /**
   * A new, empty database named after the test class, for tests of the migrations themselves and of
   * a control plane on a schema it has not migrated.
   */
  public static DatabaseSettings createEmpty(Class<?> testClass) {
    return copyOf(null, testClass);
  }

  private static synchronized DatabaseSettings copyOf(String source, Class<?> testClass) {
    DatabaseSettings admin = server();
    String name = uniqueName(testClass.getSimpleName());
    execute(admin, "CREATE DATABASE " + name + (source == null ? "" : " TEMPLATE " + source));
    return on(admin, name);
  }

  private static synchronized String migratedTemplate() {
    if (template == null) {
      DatabaseSettings admin = server();
      String name = uniqueName("template");
      execute(admin, "CREATE DATABASE " + name);
      Migrations.migrate(on(admin, name));
      template = name;
    }
    return template;
  }

  private static String uniqueName(String prefix) {
    return ("t_" + prefix + "_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet())
        .toLowerCase(Locale.ROOT);
  }

  private static DatabaseSettings on(DatabaseSettings admin, String database) {
    return new DatabaseSettings(
        admin.host(), admin.port(), database, admin.user(), admin.password());
  }

  /** Runs one statement on a database (for fixtures and for checking what a test stored). */
  public static void execute(DatabaseSettings db, String sql) {
    try (Connection connection =
            DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("test database statement failed: " + sql, e);
    }
  }

  private static synchronized DatabaseSettings server() {
    if (server == null) {
      server = startServer();
    }
    return server;
  }

  private static DatabaseSettings startServer() {
    String url = System.getenv("OLMSTEAD_TEST_PG_URL");
    if (url != null && !url.isBlank()) {
      LOG.info("tests use the PostgreSQL server at OLMSTEAD_TEST_PG_URL");
      return DatabaseSettings.parse(
          url, System.getenv("OLMSTEAD_TEST_PG_USER"), System.getenv("OLMSTEAD_TEST_PG_PASSWORD"));
    }
    if (dockerMayAnswer() && DockerClientFactory.instance().isDockerAvailable()) {
      LOG.info("tests use PostgreSQL in a Testcontainers container");
      PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:16-alpine");
      container.start();
      Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
      return new DatabaseSettings(
          container.getHost(),
          container.getFirstMappedPort(),
          container.getDatabaseName(),
          container.getUsername(),
          container.getPassword());
    }
    LOG.info("no OLMSTEAD_TEST_PG_URL and no Docker engine: tests use embedded PostgreSQL");
    try {
      EmbeddedPostgres postgres =
          EmbeddedPostgres.builder()
              .setServerConfig("fsync", "off")
              .setServerConfig("synchronous_commit", "off")
              .setServerConfig("full_page_writes", "off")
              .setServerConfig("max_connections", "300")
              .start();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      postgres.close();
                    } catch (Exception e) {
                      // the JVM is exiting
                    }
                  }));
      return new DatabaseSettings("127.0.0.1", postgres.getPort(), "postgres", "postgres", null);
    } catch (Exception e) {
      throw new IllegalStateException("cannot start embedded PostgreSQL for tests", e);
    }
  }

  /** Skips Testcontainers' slower probe when no Docker socket or host is configured at all. */
  private static boolean dockerMayAnswer() {
    return System.getenv("DOCKER_HOST") != null
        || new File("/var/run/docker.sock").exists()
        || new File(System.getProperty("user.home"), ".docker/run/docker.sock").exists()
        || new File(System.getProperty("user.home"), ".testcontainers.properties").exists();
  }
}
