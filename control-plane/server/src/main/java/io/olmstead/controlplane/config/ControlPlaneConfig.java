package io.olmstead.controlplane.config;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The control plane's typed configuration, read once from {@code OLMSTEAD_*} environment variables
 * and flags (flags win) and validated at start. Tests build it from a map.
 */
public record ControlPlaneConfig(
    String bindHost,
    int port,
    Optional<DatabaseSettings> database,
    int dbPoolSize,
    boolean migrateOnStart,
    Optional<String> adminToken,
    long maxBodyBytes,
    GatewaySettings agent,
    RegistrySettings registry,
    HypershiftSettings hypershift,
    WebhookSettings webhooks,
    OidcSettings oidc,
    MetricsSettings metrics,
    DatabaseHealthSettings databaseHealth,
    PrometheusSettings prometheus,
    EdgeRiskSettings edgeRisk) {

  public static final String PORT = "OLMSTEAD_PORT";
  public static final String BIND_HOST = "OLMSTEAD_BIND_HOST";
  public static final String DB_URL = DatabaseSettings.URL_SETTING;
  public static final String DB_USER = "OLMSTEAD_DB_USER";
  public static final String DB_PASSWORD = "OLMSTEAD_DB_PASSWORD";
  public static final String DB_POOL_SIZE = "OLMSTEAD_DB_POOL_SIZE";
  public static final String DB_MIGRATE = "OLMSTEAD_DB_MIGRATE";
  public static final String ADMIN_TOKEN = "OLMSTEAD_ADMIN_TOKEN";
  public static final String MAX_BODY_BYTES = "OLMSTEAD_MAX_BODY_BYTES";

  /**
   * Every environment variable the control plane reads; deploy manifests are checked against this
   * list.
   */
  public static final Set<String> ENVIRONMENT =
      union(
          Set.of(
              PORT,
              BIND_HOST,
              DB_URL,
              DB_USER,
              DB_PASSWORD,
              DB_POOL_SIZE,
              DB_MIGRATE,
              ADMIN_TOKEN,
              MAX_BODY_BYTES),
          union(
              GatewaySettings.ENVIRONMENT,
              union(
                  RegistrySettings.ENVIRONMENT,
                  union(
                      HypershiftSettings.ENVIRONMENT,
                      union(
                          Set.of(WebhookSettings.ALLOW_PRIVATE),
                          union(
                              SignalSettings.ENVIRONMENT,
                              union(
                                  OidcSettings.ENVIRONMENT,
                                  union(
                                      MetricsSettings.ENVIRONMENT,
                                      union(
                                          DatabaseHealthSettings.ENVIRONMENT,
                                          union(
                                              PrometheusSettings.ENVIRONMENT,
                                              EdgeRiskSettings.ENVIRONMENT))))))))));

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }

  public static final int DEFAULT_PORT = 8080;
  public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;

  public ControlPlaneConfig {
    if (port < 0 || port > 65535) {
      throw new ConfigException(PORT, "'" + port + "' is not a port number (0-65535)");
    }
    if (dbPoolSize < 1) {
      throw new ConfigException(DB_POOL_SIZE, "must be at least 1");
    }
    prometheus = prometheus == null ? PrometheusSettings.NONE : prometheus;
    edgeRisk = edgeRisk == null ? EdgeRiskSettings.DEFAULT : edgeRisk;
    if (adminToken.isPresent() && adminToken.get().length() < 16) {
      throw new ConfigException(ADMIN_TOKEN, "is too short (at least 16 characters)");
    }
  }

  /** The configuration with the default edge-risk settings. */
  public ControlPlaneConfig(
      String bindHost,
      int port,
      Optional<DatabaseSettings> database,
      int dbPoolSize,
      boolean migrateOnStart,
      Optional<String> adminToken,
      long maxBodyBytes,
      GatewaySettings agent,
      RegistrySettings registry,
      HypershiftSettings hypershift,
      WebhookSettings webhooks,
      OidcSettings oidc,
      MetricsSettings metrics,
      DatabaseHealthSettings databaseHealth,
      PrometheusSettings prometheus) {
    this(
        bindHost,
        port,
        database,
        dbPoolSize,
        migrateOnStart,
        adminToken,
        maxBodyBytes,
        agent,
        registry,
        hypershift,
        webhooks,
        oidc,
        metrics,
        databaseHealth,
        prometheus,
        EdgeRiskSettings.DEFAULT);
  }

  /**
   * Reads the environment; the database stays empty when {@code OLMSTEAD_DB_URL} is unset (dev mode
   * brings its own).
   */
  public static ControlPlaneConfig fromEnvironment(
      Map<String, String> environment, String defaultBindHost) {
    EnvReader env = new EnvReader(environment);
    Optional<DatabaseSettings> database =
        env.string(DB_URL)
            .map(
                url ->
                    DatabaseSettings.parse(
                        url, env.string(DB_USER).orElse(null), environment.get(DB_PASSWORD)));
    return new ControlPlaneConfig(
        env.string(BIND_HOST).orElse(defaultBindHost),
        env.port(PORT, DEFAULT_PORT),
        database,
        env.positiveInt(DB_POOL_SIZE, 8),
        env.bool(DB_MIGRATE, true),
        env.string(ADMIN_TOKEN),
        env.positiveLong(MAX_BODY_BYTES, DEFAULT_MAX_BODY_BYTES),
        GatewaySettings.fromEnvironment(environment),
        RegistrySettings.fromEnvironment(environment, List.of()),
        HypershiftSettings.fromEnvironment(environment),
        WebhookSettings.fromEnvironment(environment),
        OidcSettings.fromEnvironment(environment),
        MetricsSettings.fromEnvironment(environment),
        DatabaseHealthSettings.fromEnvironment(environment),
        PrometheusSettings.fromEnvironment(environment),
        EdgeRiskSettings.fromEnvironment(environment));
  }

  public ControlPlaneConfig withPort(int newPort) {
    return new ControlPlaneConfig(
        bindHost,
        newPort,
        database,
        dbPoolSize,
        migrateOnStart,
        adminToken,
        maxBodyBytes,
        agent,
        registry,
        hypershift,
        webhooks,
        oidc,
        metrics,
        databaseHealth,
        prometheus,
        edgeRisk);
  }

  public ControlPlaneConfig withDatabase(DatabaseSettings settings) {
    return new ControlPlaneConfig(
        bindHost,
        port,
        Optional.of(settings),
        dbPoolSize,
        migrateOnStart,
        adminToken,
        maxBodyBytes,
        agent,
        registry,
        hypershift,
        webhooks,
        oidc,
        metrics,
        databaseHealth,
        prometheus,
        edgeRisk);
  }

  public ControlPlaneConfig withAdminToken(String token) {
    return new ControlPlaneConfig(
        bindHost,
        port,
        database,
        dbPoolSize,
        migrateOnStart,
        Optional.ofNullable(token),
        maxBodyBytes,
        agent,
        registry,
        hypershift,
        webhooks,
        oidc,
        metrics,
        databaseHealth,
        prometheus,
        edgeRisk);
  }

  /**
   * The same configuration with other registry settings (the {@code --insecure-registry} flags).
   */
  public ControlPlaneConfig withRegistry(RegistrySettings settings) {
    return new ControlPlaneConfig(
        bindHost,
        port,
        database,
        dbPoolSize,
        migrateOnStart,
        adminToken,
        maxBodyBytes,
        agent,
        settings,
        hypershift,
        webhooks,
        oidc,
        metrics,
        databaseHealth,
        prometheus,
        edgeRisk);
  }

  /** The same configuration with other HyperShift watcher settings. */
  public ControlPlaneConfig withHypershift(HypershiftSettings settings) {
    return new ControlPlaneConfig(
        bindHost,
        port,
        database,
        dbPoolSize,
        migrateOnStart,
        adminToken,
        maxBodyBytes,
        agent,
        registry,
        settings,
        webhooks,
        oidc,
        metrics,
        databaseHealth,
        prometheus,
        edgeRisk);
  }

  /** The database, or a clear error naming the setting when none is configured. */
  public DatabaseSettings requireDatabase() {
    return database.orElseThrow(
        () ->
            new ConfigException(
                DB_URL,
                "is not set (expected postgresql://host:5432/olmstead; use the 'dev' command for an embedded database)"));
  }

  @Override
  public String toString() {
    return "ControlPlaneConfig[bind="
        + bindHost
        + ":"
        + port
        + ", database="
        + database.map(DatabaseSettings::describe)
        + ", adminToken="
        + (adminToken.isPresent() ? "***" : "none")
        + ", metrics="
        + metrics
        + "]";
  }
}
