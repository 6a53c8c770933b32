package io.olmstead.controlplane.testsupport;

import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.http.StartupGate;
import io.olmstead.controlplane.server.ControlPlane;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A control plane on a random port and its own database, with an admin token and a client, for ITs.
 */
public final class TestControlPlane implements AutoCloseable {
  public static final String ADMIN_TOKEN = "olm_admin_test-token-0123456789";

  private final ControlPlane controlPlane;
  private final DatabaseSettings database;
  private final Vertx clientVertx;
  private final WebClient client;

  private TestControlPlane(ControlPlane controlPlane, DatabaseSettings database) {
    this.controlPlane = controlPlane;
    this.database = database;
    this.clientVertx = Vertx.vertx();
    this.client =
        WebClient.create(
            clientVertx,
            new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(controlPlane.port()));
  }

  /** Starts on a fresh database for this test class. */
  public static TestControlPlane start(Class<?> testClass) {
    return start(TestDatabase.create(testClass), Map.of());
  }

  /** Starts on the given database; {@code env} adds or overrides OLMSTEAD_* settings. */
  public static TestControlPlane start(DatabaseSettings database, Map<String, String> env) {
    return start(database, env, 0);
  }

  /**
   * As above on {@code port} (0: a random one), for a test whose settings must name the control
   * plane's URL before it listens (see {@link #freePort}).
   */
  public static TestControlPlane start(
      DatabaseSettings database, Map<String, String> env, int port) {
    return start(database, env, port, Clock.systemUTC());
  }

  /**
   * As above, reading the time from {@code clock} (token cache and lifetimes, rollout windows and
   * soaks).
   */
  public static TestControlPlane start(
      DatabaseSettings database, Map<String, String> env, int port, Clock clock) {
    return start(database, env, port, clock, UnaryOperator.identity());
  }

  /**
   * As {@link #start(DatabaseSettings, Map)}, with {@code adjust} applied to the configuration read
   * from {@code env}: typed settings no variable can give, such as sub-second intervals.
   */
  public static TestControlPlane start(
      DatabaseSettings database,
      Map<String, String> env,
      UnaryOperator<ControlPlaneConfig> adjust) {
    return start(database, env, 0, Clock.systemUTC(), adjust);
  }

  private static TestControlPlane start(
      DatabaseSettings database,
      Map<String, String> env,
      int port,
      Clock clock,
      UnaryOperator<ControlPlaneConfig> adjust) {
    ControlPlaneConfig config =
        adjust.apply(
            ControlPlaneConfig.fromEnvironment(env, "127.0.0.1")
                .withPort(port)
                .withDatabase(database));
    if (config.adminToken().isEmpty()) {
      config = config.withAdminToken(ADMIN_TOKEN);
    }
    try {
      ControlPlane controlPlane =
          ControlPlane.start(config, StartupGate.open(), clock)
              .toCompletionStage()
              .toCompletableFuture()
              .get(2, TimeUnit.MINUTES);
      return new TestControlPlane(controlPlane, database);
    } catch (Exception e) {
      throw new IllegalStateException("control plane did not start", e);
    }
  }

  /**
   * A port free now on 127.0.0.1 (another process may take it before it is used: rare, and the test
   * then fails).
   */
  public static int freePort() {
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (java.io.IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }

  public int port() {
    return controlPlane.port();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + port();
  }

  public WebClient client() {
    return client;
  }

  public ControlPlane controlPlane() {
    return controlPlane;
  }

  public DatabaseSettings database() {
    return database;
  }

  public Optional<String> generatedAdminToken() {
    return controlPlane.generatedAdminToken();
  }

  @Override
  public void close() {
    client.close();
    clientVertx.close();
    controlPlane.close();
  }
}
