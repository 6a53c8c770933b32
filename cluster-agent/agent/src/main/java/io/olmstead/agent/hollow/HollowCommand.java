package io.olmstead.agent.hollow;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hollow}: runs N lightweight agents speaking the real protocol, to load-test a control
 * plane.
 */
@Command(
    name = "hollow",
    mixinStandardHelpOptions = true,
    description =
        "Runs N hollow agents in this process against a control plane (load testing, like kubemark).")
public final class HollowCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--count", required = true, description = "number of agents")
  int count;

  @Option(
      names = "--control-plane",
      required = true,
      description = "control plane base URL, e.g. http://127.0.0.1:8080")
  URI controlPlane;

  @Option(names = "--token", required = true, description = "enrollment token (maxUses >= count)")
  String token;

  @Option(
      names = "--name-prefix",
      defaultValue = "hollow-",
      description = "cluster name prefix (default: ${DEFAULT-VALUE})")
  String namePrefix;

  @Option(
      names = "--ready-after",
      defaultValue = "2s",
      description = "delay before a subscription succeeds (default: ${DEFAULT-VALUE})")
  String readyAfter;

  @Option(
      names = "--failure-rate",
      defaultValue = "0.0",
      description = "probability that an install fails (0..1)")
  double failureRate;

  @Option(names = "--label", description = "label for every agent, key=value (repeatable)")
  Map<String, String> labels = new LinkedHashMap<>();

  @Option(
      names = "--credentials-dir",
      description = "keep credentials in files here (default: in memory)")
  Path credentialsDir;

  @Option(
      names = "--connects-per-second",
      defaultValue = "500",
      description = "connection ramp (default: ${DEFAULT-VALUE})")
  int connectsPerSecond;

  @Option(
      names = "--report-every",
      description = "load: re-report every subscription this often (e.g. 1s)")
  String reportEvery;

  @Option(
      names = "--inventory-every",
      description = "load: report an inventory this often (e.g. 60s)")
  String inventoryEvery;

  @Option(
      names = "--inventory-operators",
      defaultValue = "20",
      description = "operators per inventory report (default: ${DEFAULT-VALUE}, at most 200)")
  int inventoryOperators;

  @Option(
      names = "--duration",
      description = "stop after this long (e.g. 10m); default: until interrupted")
  String duration;

  @Override
  public Integer call() throws InterruptedException {
    if (count < 1 || count > 100_000) {
      throw new ParameterException(spec.commandLine(), "--count must be between 1 and 100000");
    }
    if (failureRate < 0 || failureRate > 1) {
      throw new ParameterException(spec.commandLine(), "--failure-rate must be between 0 and 1");
    }
    if (inventoryOperators < 0 || inventoryOperators > HollowInventory.MAX_OPERATORS) {
      throw new ParameterException(
          spec.commandLine(), "--inventory-operators must be between 0 and 200");
    }
    Duration ready = parse("--ready-after", readyAfter);
    Duration inventory = inventoryEvery == null ? null : parse("--inventory-every", inventoryEvery);
    Duration runFor = duration == null ? null : parse("--duration", duration);
    CountDownLatch done = new CountDownLatch(1);
    HollowFleet fleet =
        HollowFleet.start(
            new HollowFleet.Settings(
                count,
                controlPlane,
                token,
                namePrefix,
                ready,
                failureRate,
                labels,
                credentialsDir,
                connectsPerSecond,
                reportEvery == null ? null : parse("--report-every", reportEvery)));
    if (inventory != null && !inventory.isZero()) {
      fleet.reportInventory(inventory, inventoryOperators);
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  done.countDown();
                  fleet.close();
                },
                "hollow-shutdown"));
    spec.commandLine()
        .getOut()
        .printf("started %d hollow agents against %s%n", count, controlPlane);
    if (runFor == null) {
      done.await();
    } else {
      done.await(runFor.toMillis(), TimeUnit.MILLISECONDS);
      fleet.close();
    }
    return 0;
  }

  private Duration parse(String option, String text) {
    try {
      String t = text.trim().toLowerCase(Locale.ROOT);
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      if (t.endsWith("s") || t.endsWith("m") || t.endsWith("h")) {
        return Duration.parse("PT" + t.toUpperCase(Locale.ROOT));
      }
      return Duration.ofSeconds(Long.parseLong(t));
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new ParameterException(
          spec.commandLine(), option + " '" + text + "' is not a duration like 2s or 500ms");
    }
  }
}
