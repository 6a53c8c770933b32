package io.olmstead.controlplane.cli;

import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.sim.SimulatedCluster;
import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseHealthSettings;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.config.MetricsSettings;
import io.olmstead.controlplane.config.OidcSettings;
import io.olmstead.controlplane.config.PrometheusSettings;
import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.config.WebhookSettings;
import io.olmstead.controlplane.db.EmbeddedDatabase;
import io.olmstead.controlplane.db.StartupException;
import io.olmstead.controlplane.dev.ClusterKubeconfigs;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.dev.DevHypershift;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.http.StartupGate;
import io.olmstead.controlplane.server.ControlPlane;
import io.vertx.core.Future;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Dev mode: an embedded PostgreSQL in a data directory that survives restarts, migrations, the
 * server, the demo catalog, and with {@code --simulate N} N simulated clusters in the same process.
 */
@Command(
    name = "dev",
    mixinStandardHelpOptions = true,
    description = "Run the control plane on an embedded PostgreSQL (no setup needed).")
public final class DevCommand implements Callable<Integer> {
  private final Map<String, String> env;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "HTTP port (default ${DEFAULT-VALUE}).",
      defaultValue = "8080")
  int port;

  @Option(
      names = "--bind",
      paramLabel = "HOST",
      description = "Address to listen on (default ${DEFAULT-VALUE}).",
      defaultValue = "127.0.0.1")
  String bindHost;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Where the database lives (default ~/.olmstead/dev).")
  Path dataDir;

  @Option(
      names = "--insecure-registry",
      paramLabel = "HOST:PORT",
      description =
          "A registry reached over plain HTTP (repeatable; adds to env OLMSTEAD_REGISTRY_INSECURE).")
  List<String> insecureRegistries = new ArrayList<>();

  @Option(names = "--fresh", description = "Wipe the data directory first.")
  boolean fresh;

  @Option(
      names = "--admin-token",
      paramLabel = "TOKEN",
      description =
          "Admin API token to accept; else one is generated at first start and printed once.")
  String adminToken;

  @Option(
      names = "--simulate",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Also start N SIMULATED clusters (sim-01...; real agents on in-memory Kubernetes APIs) in this "
              + "process, at most "
              + DevSimulation.MAX_CLUSTERS
              + ".")
  int simulate;

  @Option(
      names = "--simulate-fail",
      paramLabel = "NAMES",
      split = ",",
      description = "Simulated clusters whose Deployments fail (e.g. sim-03,sim-07).")
  List<String> simulateFail = new ArrayList<>();

  @Option(
      names = "--simulate-hypershift",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Also run a SIMULATED HyperShift management cluster with N HostedClusters (clusters/hc-01...) "
              + "that the control plane watches, enrolls and connects, at most "
              + DevHypershift.MAX_HOSTED_CLUSTERS
              + "; its kubeconfig is written to <data-dir>/"
              + DevHypershift.KUBECONFIG_FILE
              + ".")
  int simulateHypershift;

  @Option(
      names = "--hypershift-crds",
      paramLabel = "DIR",
      defaultValue = "../shared/hypershift",
      description =
          "Where the HostedCluster and NodePool CRDs are, for --simulate-hypershift (default "
              + "${DEFAULT-VALUE}).")
  Path hypershiftCrds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public DevCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public Integer call() {
    if (port < 0 || port > 65535) {
      throw new ConfigException("--port", "'" + port + "' is not a port number (0-65535)");
    }
    DevSimulation.check(simulate, simulateFail);
    DevHypershift.check(simulateHypershift, hypershiftCrds);
    // with --simulate-hypershift in per-cluster mode: a default agent image, and the agents dial
    // dev's own URL
    HypershiftSettings hypershift =
        HypershiftSettings.fromEnvironment(
            simulateHypershift == 0
                ? env
                : DevHypershift.environment(env, devUrl(bindHost, port), port));
    if (simulateHypershift > 0 && hypershift.enabled()) {
      throw new ConfigException(
          "--simulate-hypershift",
          "cannot be combined with "
              + HypershiftSettings.MANAGEMENT_KUBECONFIG
              + " (the simulated management cluster is the one watched)");
    }
    // checked here too so the error names the flag the user typed (the config check names
    // OLMSTEAD_ADMIN_TOKEN)
    ServerOptions.checkAdminTokenFlag(adminToken);
    // the environment Main was given, read once and checked before anything (the database) starts
    Settings settings = Settings.of(env, insecureRegistries);
    Path dir =
        dataDir != null ? dataDir : Paths.get(System.getProperty("user.home"), ".olmstead", "dev");
    // held until the process ends: a second dev on this directory must neither wipe it nor start a
    // database in it
    DataDirLock lock = DataDirLock.acquire(dir);
    if (fresh) {
      wipe(dir);
    }
    EmbeddedDatabase database;
    try {
      database = EmbeddedDatabase.start(dir);
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
    DevHypershift simulatedHypershift;
    try {
      simulatedHypershift =
          simulateHypershift == 0
              ? null
              : DevHypershift.start(
                  dir,
                  hypershiftCrds,
                  simulateHypershift,
                  DevHypershift.DEFAULT_VERSION_DELAY,
                  DevSimulation.DEFAULT_ROLLOUT_DELAY);
    } catch (RuntimeException e) {
      closeQuietly(database);
      lock.close();
      throw e;
    }
    if (simulatedHypershift != null) {
      hypershift =
          new HypershiftSettings(
              Optional.of(simulatedHypershift.kubeconfig().toString()),
              hypershift.resync(),
              hypershift.crdPoll(),
              hypershift.agents());
    }
    // /readyz says 503 naming this until the demo catalog is in: "ready" means a user can subscribe
    // to it
    StartupGate catalogGate =
        StartupGate.held("dev: demo catalog '" + DemoCatalog.NAME + "' not loaded yet");
    ControlPlane controlPlane;
    try {
      ControlPlaneConfig config =
          new ControlPlaneConfig(
              bindHost,
              port,
              Optional.of(database.settings()),
              8,
              true,
              Optional.ofNullable(adminToken),
              ControlPlaneConfig.DEFAULT_MAX_BODY_BYTES,
              settings.gateway(),
              settings.registry(),
              hypershift,
              settings.webhooks(),
              settings.oidc(),
              settings.metrics(),
              settings.databaseHealth(),
              settings.prometheus());
      controlPlane = Foreground.start(config, catalogGate);
    } catch (RuntimeException e) {
      closeIfStarted(simulatedHypershift);
      closeQuietly(database);
      lock.close();
      throw e;
    }
    String url = devUrl(bindHost, controlPlane.port());
    DevSimulation simulation;
    try {
      await(DemoCatalog.ensureLoaded(controlPlane.vertx(), controlPlane.pool()));
      catalogGate.release();
      simulation =
          simulate == 0
              ? null
              : DevSimulation.start(
                  controlPlane.vertx(),
                  controlPlane.pool(),
                  URI.create(url),
                  simulate,
                  simulateFail,
                  DevSimulation.DEFAULT_ROLLOUT_DELAY,
                  DevSimulation.INVENTORY_INTERVAL);
      if (simulation != null) {
        try {
          simulation.writeKubeconfigs(dir);
        } catch (RuntimeException e) {
          simulation.close();
          throw e;
        }
      } else {
        ClusterKubeconfigs.write(dir, Map.of())
            .close(); // those a killed dev left behind name servers long gone
      }
      if (simulatedHypershift != null) {
        simulatedHypershift.connectAgents(
            controlPlane.pool(), URI.create(url), hypershift.agents().perCluster());
      }
    } catch (ResourceException | RuntimeException e) {
      closeIfStarted(simulatedHypershift);
      controlPlane.close();
      closeQuietly(database);
      lock.close();
      throw new StartupException("dev mode: " + e.getMessage(), e);
    }
    spec.commandLine()
        .getOut()
        .println(readyLine(url, dir, controlPlane.generatedAdminToken(), adminToken != null));
    if (simulation != null) {
      spec.commandLine()
          .getOut()
          .println(
              "SIMULATION: "
                  + simulate
                  + " simulated clusters ("
                  + SimulatedCluster.nameFor(1)
                  + (simulate > 1 ? ".." + SimulatedCluster.nameFor(simulate) : "")
                  + ", labels env=dev and region) run in this "
                  + "process on in-memory Kubernetes APIs; try subscribing package olmstead-demo-operator of catalog demo; "
                  + "kubectl them with --kubeconfig "
                  + ClusterKubeconfigs.file(dir, SimulatedCluster.nameFor(1))
                  + " (one "
                  + "file per cluster in "
                  + dir.resolve(ClusterKubeconfigs.DIR).toAbsolutePath()
                  + ")");
    }
    if (simulatedHypershift != null) {
      spec.commandLine().getOut().println(simulatedHypershift.readyLine(simulateHypershift));
    }
    spec.commandLine().getOut().flush();
    Foreground.awaitShutdown(
        () -> {
          if (simulation != null) {
            simulation.close();
          }
          closeIfStarted(simulatedHypershift);
          controlPlane.close();
          closeQuietly(database);
          lock.close();
        });
    return 0;
  }

  private static String devUrl(String bindHost, int port) {
    return "http://" + ("0.0.0.0".equals(bindHost) ? "127.0.0.1" : bindHost) + ":" + port;
  }

  /**
   * The ready line shows a token only when this start generated it (a given --admin-token is never
   * echoed).
   */
  static String readyLine(String url, Path dir, Optional<String> generated, boolean tokenGiven) {
    String token =
        generated.orElse(
            tokenGiven
                ? "<the token given with --admin-token>"
                : "<the admin token printed at first start; restart with --admin-token T or --fresh for a new one>");
    return "Olmstead dev control plane ready at "
        + url
        + " (data in "
        + dir
        + "); use the API with: curl -H "
        + "'Authorization: Bearer "
        + token
        + "' "
        + url
        + "/api/v1/clusters";
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("timed out loading the demo catalog", e);
    }
  }

  /**
   * Deletes what dev keeps in {@code dir} (the embedded database and its password) and nothing
   * else: a mistyped {@code --data-dir ~} must not cost a home directory.
   */
  static void wipe(Path dir) {
    for (Path owned :
        List.of(
            dir.resolve(EmbeddedDatabase.PG_DIR), dir.resolve(EmbeddedDatabase.PASSWORD_FILE))) {
      if (!Files.exists(owned, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      try (Stream<Path> paths = Files.walk(owned)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      } catch (IOException e) {
        throw new StartupException("--fresh: cannot wipe " + owned + ": " + e.getMessage(), e);
      }
    }
  }

  private static void closeIfStarted(DevHypershift simulated) {
    if (simulated != null) {
      simulated.close();
    }
  }

  private static void closeQuietly(EmbeddedDatabase database) {
    try {
      database.close();
    } catch (IOException e) {
      // the process is stopping; nothing more to do with a database that will not close
    }
  }

  /**
   * The settings dev takes from the environment as they are (the database, port and HyperShift are
   * dev's own).
   */
  private record Settings(
      GatewaySettings gateway,
      RegistrySettings registry,
      WebhookSettings webhooks,
      OidcSettings oidc,
      MetricsSettings metrics,
      DatabaseHealthSettings databaseHealth,
      PrometheusSettings prometheus) {
    static Settings of(Map<String, String> env, List<String> insecureRegistries) {
      return new Settings(
          GatewaySettings.fromEnvironment(env),
          RegistrySettings.fromEnvironment(env, insecureRegistries),
          WebhookSettings.fromEnvironment(env),
          OidcSettings.fromEnvironment(env),
          MetricsSettings.fromEnvironment(env),
          DatabaseHealthSettings.fromEnvironment(env),
          PrometheusSettings.fromEnvironment(env));
    }
  }
}
