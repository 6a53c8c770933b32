package io.olmstead.controlplane.db;

import io.olmstead.controlplane.config.DatabaseSettings;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Runs the Flyway migrations packaged by db-migrations; blocking, so callers run it on a worker
 * thread.
 */
public final class Migrations {
  public static final String LOCATION = "classpath:db/migration";

  private Migrations() {}

  /** Applies pending migrations and returns the number applied. */
  public static int migrate(DatabaseSettings db) {
    try {
      MigrateResult result = flyway(db).migrate();
      return result.migrationsExecuted;
    } catch (RuntimeException e) {
      throw new StartupException(describeFailure(db, e), e);
    }
  }

  /**
   * The newest migration version packaged with this build: what readiness expects to find applied.
   */
  public static String latestPackagedVersion(DatabaseSettings db) {
    try {
      String latest = null;
      for (MigrationInfo info : flyway(db).info().all()) {
        if (info.getVersion() != null) {
          latest = info.getVersion().getVersion();
        }
      }
      if (latest == null) {
        throw new StartupException(
            "no database migrations found on the classpath (" + LOCATION + ")");
      }
      return latest;
    } catch (StartupException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new StartupException(describeFailure(db, e), e);
    }
  }

  private static Flyway flyway(DatabaseSettings db) {
    return Flyway.configure()
        .dataSource(db.jdbcUrl(), db.user(), db.password())
        .locations(LOCATION)
        .connectRetries(0)
        .loggers("slf4j")
        .load();
  }

  /**
   * One line naming the database and the root cause, e.g. "database unreachable at h:5432/db:
   * Connection refused".
   */
  static String describeFailure(DatabaseSettings db, Throwable e) {
    Throwable root = e;
    boolean sql = false;
    while (root.getCause() != null && root.getCause() != root) {
      sql |= root instanceof SQLException;
      root = root.getCause();
    }
    String message =
        root.getMessage() == null
            ? root.getClass().getSimpleName()
            : root.getMessage().lines().findFirst().orElse("");
    if (root instanceof ConnectException || root instanceof UnknownHostException || sql) {
      return "database unreachable at "
          + db.describe()
          + " ("
          + DatabaseSettings.URL_SETTING
          + "): "
          + message;
    }
    return "database migration failed at " + db.describe() + ": " + message;
  }
}
