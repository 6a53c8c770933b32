package io.olmstead.controlplane.config;

import io.vertx.pgclient.PgConnectOptions;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * How a replica bounds its use of the database, so that a hung or half-open path ends instead of
 * wedging it: each statement of the pool ends on the server after {@code statementSeconds}; a
 * pooled connection that reads nothing for {@code readSeconds} (longer, so a slow statement is
 * cancelled by the server first) is closed and the pool opens another; a connection attempt gives
 * up after {@code connectSeconds}; and after {@code unreachableSeconds} without an answer from the
 * database the replica lets its agents go (they redial another replica) and {@code /healthz} fails.
 */
public record DatabaseHealthSettings(
    int statementSeconds, int readSeconds, int connectSeconds, int unreachableSeconds) {
  public static final String STATEMENT_TIMEOUT = "OLMSTEAD_DB_STATEMENT_TIMEOUT_SECONDS";
  public static final String READ_TIMEOUT = "OLMSTEAD_DB_READ_TIMEOUT_SECONDS";
  public static final String CONNECT_TIMEOUT = "OLMSTEAD_DB_CONNECT_TIMEOUT_SECONDS";
  public static final String UNREACHABLE = "OLMSTEAD_DB_UNREACHABLE_SECONDS";
  public static final Set<String> ENVIRONMENT =
      Set.of(STATEMENT_TIMEOUT, READ_TIMEOUT, CONNECT_TIMEOUT, UNREACHABLE);
  public static final DatabaseHealthSettings DEFAULTS = new DatabaseHealthSettings(30, 45, 10, 30);

  public DatabaseHealthSettings {
    if (readSeconds <= statementSeconds) {
      throw new ConfigException(
          READ_TIMEOUT,
          readSeconds
              + " must be longer than "
              + STATEMENT_TIMEOUT
              + " ("
              + statementSeconds
              + "), so that a slow statement is cancelled by the server before its connection is cut");
    }
  }

  public static DatabaseHealthSettings fromEnvironment(Map<String, String> environment) {
    EnvReader env = new EnvReader(environment);
    return new DatabaseHealthSettings(
        env.positiveInt(STATEMENT_TIMEOUT, DEFAULTS.statementSeconds),
        env.positiveInt(READ_TIMEOUT, DEFAULTS.readSeconds),
        env.positiveInt(CONNECT_TIMEOUT, DEFAULTS.connectSeconds),
        env.positiveInt(UNREACHABLE, DEFAULTS.unreachableSeconds));
  }

  /**
   * {@code base} as the pool's connections use it: the statement timeout set on the server for the
   * session, the read timeout, the connect timeout, and {@code applicationName} (the replica's own
   * sessions, found again by that name).
   */
  public PgConnectOptions pooled(PgConnectOptions base, String applicationName) {
    PgConnectOptions options = new PgConnectOptions(base);
    options.addProperty(
        "statement_timeout", Long.toString(TimeUnit.SECONDS.toMillis(statementSeconds)));
    options.addProperty("application_name", applicationName);
    options.setReadIdleTimeout(readSeconds);
    options.setIdleTimeoutUnit(TimeUnit.SECONDS);
    options.setConnectTimeout((int) TimeUnit.SECONDS.toMillis(connectSeconds));
    return options;
  }
}
