package io.olmstead.controlplane.cli;

import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.RegistrySettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Flags shared by the commands; each one overrides the environment variable it names. */
public final class ServerOptions {
  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "HTTP port (env OLMSTEAD_PORT, default 8080).")
  Integer port;

  @Option(
      names = "--bind",
      paramLabel = "HOST",
      description = "Address to listen on (env OLMSTEAD_BIND_HOST).")
  String bindHost;

  @Option(
      names = "--db-url",
      paramLabel = "URL",
      description = "PostgreSQL URL, postgresql://host:5432/db (env OLMSTEAD_DB_URL).")
  String dbUrl;

  @Option(
      names = "--db-user",
      paramLabel = "USER",
      description = "Database user (env OLMSTEAD_DB_USER).")
  String dbUser;

  @Option(
      names = "--admin-token",
      paramLabel = "TOKEN",
      description =
          "Admin API token to accept (env OLMSTEAD_ADMIN_TOKEN); its hash is stored, never the token.")
  String adminToken;

  @Option(
      names = "--insecure-registry",
      paramLabel = "HOST:PORT",
      description =
          "A registry reached over plain HTTP (repeatable; adds to env OLMSTEAD_REGISTRY_INSECURE).")
  List<String> insecureRegistries = new ArrayList<>();

  /**
   * A too short {@code --admin-token} is refused naming the flag, not the variable the config check
   * names.
   */
  static void checkAdminTokenFlag(String token) {
    if (token != null && token.length() < 16) {
      throw new ConfigException("--admin-token", "is too short (at least 16 characters)");
    }
  }

  /** Environment first, then flags on top. */
  ControlPlaneConfig resolve(Map<String, String> env, String defaultBindHost) {
    ControlPlaneConfig config = ControlPlaneConfig.fromEnvironment(env, defaultBindHost);
    if (port != null) {
      if (port < 0 || port > 65535) {
        throw new ConfigException("--port", "'" + port + "' is not a port number (0-65535)");
      }
      config = config.withPort(port);
    }
    if (bindHost != null) {
      config =
          new ControlPlaneConfig(
              bindHost,
              config.port(),
              config.database(),
              config.dbPoolSize(),
              config.migrateOnStart(),
              config.adminToken(),
              config.maxBodyBytes(),
              config.agent(),
              config.registry(),
              config.hypershift(),
              config.webhooks(),
              config.oidc(),
              config.metrics(),
              config.databaseHealth(),
              config.prometheus());
    }
    if (dbUrl != null) {
      config =
          config.withDatabase(
              DatabaseSettings.parse(
                  dbUrl,
                  dbUser != null ? dbUser : env.get(ControlPlaneConfig.DB_USER),
                  env.get(ControlPlaneConfig.DB_PASSWORD)));
    }
    if (adminToken != null) {
      checkAdminTokenFlag(adminToken);
      config = config.withAdminToken(adminToken);
    }
    if (!insecureRegistries.isEmpty()) {
      config = config.withRegistry(RegistrySettings.fromEnvironment(env, insecureRegistries));
    }
    return config;
  }
}
