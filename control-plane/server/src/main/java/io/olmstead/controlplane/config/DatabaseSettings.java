package io.olmstead.controlplane.config;

import io.vertx.pgclient.PgConnectOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where the PostgreSQL database is: parsed once from {@code postgresql://} or {@code
 * jdbc:postgresql://} URLs, and handed to both Flyway (JDBC) and the Vert.x pool.
 */
public record DatabaseSettings(
    String host, int port, String database, String user, String password) {

  public static final String URL_SETTING = "OLMSTEAD_DB_URL";

  /**
   * TCP keepalive on every database connection: probes after this much silence, then every {@link
   * #KEEPALIVE_INTERVAL_SECONDS} ({@link #KEEPALIVE_COUNT} unanswered end it), so an idle session
   * whose server or path went away (a failover, a half-open partition) ends within about 30 s
   * instead of the kernel's two hours.
   */
  public static final int KEEPALIVE_IDLE_SECONDS = 15;

  public static final int KEEPALIVE_INTERVAL_SECONDS = 5;
  public static final int KEEPALIVE_COUNT = 3;

  /** Parses a database URL; user and password given separately win over those in the URL. */
  public static DatabaseSettings parse(String url, String user, String password) {
    if (url == null || url.isBlank()) {
      throw new ConfigException(
          URL_SETTING, "is not set (expected postgresql://host:5432/olmstead)");
    }
    String text = url.trim();
    if (text.startsWith("jdbc:")) {
      text = text.substring("jdbc:".length());
    }
    if (severalHosts(text)) {
      // the Vert.x PostgreSQL client dials one address: it has neither several hosts nor
      // target_session_attrs
      throw new ConfigException(
          URL_SETTING,
          "'"
              + redact(url)
              + "' names several hosts; give one address that "
              + "always leads to the read-write primary (CloudNativePG's <cluster>-rw Service, or HAProxy on Patroni's "
              + "primary check): see docs/operations.md");
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw malformed(url);
    }
    String scheme = uri.getScheme();
    if (!"postgresql".equals(scheme) && !"postgres".equals(scheme)) {
      throw malformed(url);
    }
    String host = uri.getHost();
    String path = uri.getPath();
    if (host == null || path == null || path.length() < 2 || path.indexOf('/', 1) >= 0) {
      throw malformed(url);
    }
    int port = uri.getPort() == -1 ? 5432 : uri.getPort();
    String urlUser = null;
    String urlPassword = null;
    if (uri.getRawUserInfo() != null) {
      String[] parts = uri.getRawUserInfo().split(":", 2);
      urlUser = decode(parts[0]);
      urlPassword = parts.length > 1 ? decode(parts[1]) : null;
    }
    String finalUser = user != null && !user.isBlank() ? user : urlUser;
    String finalPassword = password != null ? password : urlPassword;
    return new DatabaseSettings(
        host, port, path.substring(1), finalUser == null ? "postgres" : finalUser, finalPassword);
  }

  /**
   * Whether the URL's host part (after any user:password@) lists several hosts, as libpq allows.
   */
  private static boolean severalHosts(String url) {
    int start = url.indexOf("://");
    if (start < 0) {
      return false;
    }
    String rest = url.substring(start + 3);
    int end = rest.length();
    for (char c : new char[] {'/', '?'}) {
      int at = rest.indexOf(c);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    String authority = rest.substring(0, end);
    return authority.substring(authority.lastIndexOf('@') + 1).contains(",");
  }

  private static String decode(String raw) {
    return URLDecoder.decode(raw, StandardCharsets.UTF_8);
  }

  private static ConfigException malformed(String url) {
    return new ConfigException(
        URL_SETTING,
        "'"
            + redact(url)
            + "' is not a PostgreSQL URL (expected postgresql://host:5432/database or jdbc:postgresql://host:5432/database)");
  }

  /** The URL with any password replaced, safe to print. */
  static String redact(String url) {
    return url.replaceAll("(//[^:/@]*):[^@/]*@", "$1:***@");
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  /** host:port/database, for messages (no credentials). */
  public String describe() {
    return host + ":" + port + "/" + database;
  }

  public PgConnectOptions connectOptions() {
    PgConnectOptions options =
        new PgConnectOptions()
            .setHost(host)
            .setPort(port)
            .setDatabase(database)
            .setUser(user)
            .setCachePreparedStatements(true)
            .setPipeliningLimit(64);
    options
        .setTcpKeepAlive(true)
        .setTcpKeepAliveIdleSeconds(KEEPALIVE_IDLE_SECONDS)
        .setTcpKeepAliveIntervalSeconds(KEEPALIVE_INTERVAL_SECONDS)
        .setTcpKeepAliveCount(KEEPALIVE_COUNT);
    if (password != null) {
      options.setPassword(password);
    }
    return options;
  }

  @Override
  public String toString() {
    return "DatabaseSettings[" + describe() + ", user=" + user + "]";
  }
}
