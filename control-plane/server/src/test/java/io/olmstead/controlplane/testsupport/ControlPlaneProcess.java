package io.olmstead.controlplane.testsupport;

import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A control-plane replica in a JVM of its own ({@code serve} on the given database, 127.0.0.1, a
 * free port), so a test can kill it as an OOM killer or a lost node would: {@link #kill()} is
 * SIGKILL, no shutdown hook runs. It runs the packaged jar when built (failsafe runs after {@code
 * package}), else this JVM's class path (an IDE run).
 */
public final class ControlPlaneProcess implements AutoCloseable {
  private static final Path JAR = Path.of("target", "olmstead-control-plane.jar");
  private static final Pattern SERVING = Pattern.compile("serving on [^ ]+:(\\d+) ");

  private final Process process;
  private final Path log;
  private final int port;

  private ControlPlaneProcess(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * Starts {@code serve} and waits (at most 90 s) for the line naming its port; {@code env} adds
   * OLMSTEAD_* settings.
   */
  public static ControlPlaneProcess start(DatabaseSettings db, Map<String, String> env, Path log)
      throws Exception {
    List<String> command = new ArrayList<>(ChildJvm.command("384m"));
    if (!command.contains("-XX:+UseSerialGC")) {
      command.add("-XX:+UseSerialGC");
    }
    if (Files.isRegularFile(JAR)) {
      command.addAll(List.of("-jar", JAR.toString()));
    } else {
      command.addAll(
          List.of("-cp", System.getProperty("java.class.path"), "io.olmstead.controlplane.Main"));
    }
    command.add("serve");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("OLMSTEAD_"));
    builder.environment().putAll(env);
    builder
        .environment()
        .put(
            ControlPlaneConfig.DB_URL,
            "postgresql://" + db.host() + ":" + db.port() + "/" + db.database());
    builder.environment().put(ControlPlaneConfig.DB_USER, db.user());
    if (db.password() != null) {
      builder.environment().put(ControlPlaneConfig.DB_PASSWORD, db.password());
    }
    builder.environment().put(ControlPlaneConfig.BIND_HOST, "127.0.0.1");
    builder.environment().put(ControlPlaneConfig.PORT, "0");
    builder.environment().put(ControlPlaneConfig.ADMIN_TOKEN, TestControlPlane.ADMIN_TOKEN);
    Process process = builder.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline && process.isAlive()) {
      Matcher m = SERVING.matcher(Files.readString(log));
      if (m.find()) {
        return new ControlPlaneProcess(process, log, Integer.parseInt(m.group(1)));
      }
      Thread.sleep(100);
    }
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    throw new AssertionError("the control-plane process did not start:\n" + Files.readString(log));
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  public boolean alive() {
    return process.isAlive();
  }

  public String output() throws IOException {
    return Files.readString(log);
  }

  /** kill -9, and waits (at most 10 s) until the process is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      throw new AssertionError("process " + process.pid() + " still runs 10 s after SIGKILL");
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
