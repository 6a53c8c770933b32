package io.olmstead.controlplane.cli;

import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Applies the database migrations and exits. */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = "Apply the database migrations to OLMSTEAD_DB_URL and exit.")
public final class MigrateCommand implements Callable<Integer> {
  private final Map<String, String> env;

  @Option(
      names = "--db-url",
      paramLabel = "URL",
      description = "PostgreSQL URL (env OLMSTEAD_DB_URL).")
  String dbUrl;

  @Option(
      names = "--db-user",
      paramLabel = "USER",
      description = "Database user (env OLMSTEAD_DB_USER).")
  String dbUser;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public MigrateCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public Integer call() {
    DatabaseSettings db =
        DatabaseSettings.parse(
            dbUrl != null ? dbUrl : env.get(ControlPlaneConfig.DB_URL),
            dbUser != null ? dbUser : env.get(ControlPlaneConfig.DB_USER),
            env.get(ControlPlaneConfig.DB_PASSWORD));
    int applied = Migrations.migrate(db);
    spec.commandLine()
        .getOut()
        .println(
            "database "
                + db.describe()
                + " is up to date ("
                + applied
                + " migrations applied now)");
    return 0;
  }
}
