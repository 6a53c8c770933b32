package io.olmstead.controlplane.cli;

import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.server.ControlPlane;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Production mode: an external PostgreSQL from OLMSTEAD_DB_URL, migrations applied at start. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "Serve the control plane against PostgreSQL (OLMSTEAD_DB_URL, OLMSTEAD_DB_USER, OLMSTEAD_DB_PASSWORD).")
public final class ServeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  private final Map<String, String> env;

  @Mixin ServerOptions options;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public ServeCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public Integer call() {
    ControlPlaneConfig config = options.resolve(env, "0.0.0.0");
    config.requireDatabase();
    ControlPlane controlPlane = Foreground.start(config);
    LOG.info(
        "Olmstead control plane serving on {}:{} (database {})",
        config.bindHost(),
        controlPlane.port(),
        config.requireDatabase().describe());
    controlPlane
        .generatedAdminToken()
        .ifPresent(
            token ->
                spec.commandLine()
                    .getOut()
                    .println("Generated admin token (shown once, stored hashed): " + token));
    Foreground.awaitShutdown(controlPlane::close);
    return 0;
  }
}
