package io.olmstead.controlplane.dev;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.RunCommand;
import io.olmstead.agent.config.AgentConfig;
import io.olmstead.agent.config.ConfigException;
import io.olmstead.controlplane.hypershift.percluster.HostedAgentObjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION: the kubelet of the simulated management cluster, for per-cluster hosted agents. On a
 * thread of its own it lists, every {@code period}, the Deployments labelled as hosted agents
 * ({@link HostedAgentObjects#LABELS}) and runs each one's pod in this process: the Secret volumes'
 * keys as files (0600) in a private directory per Deployment, the container's environment resolved
 * ({@link SimulatedPod}), then the real agent started with it as {@code olmstead-agent run} would
 * start ({@link RunCommand#start}). A changed pod template (its {@value
 * HostedAgentObjects#HASH_ANNOTATION} annotation: a rotated credential or kubeconfig) stops the
 * agent and starts a new one, as a {@code Recreate} roll; a deleted Deployment stops it; its files
 * are deleted with it. At most {@code maxAgents} run; a pod that cannot start is logged once per
 * reason (never a Secret's content) and tried again every {@value #RETRY_SECONDS} s, as a kubelet
 * restarts a crashing container.
 */
public final class SimulatedKubelet implements AutoCloseable {
  static final long RETRY_SECONDS = 5;
  private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_DIR =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final Logger LOG = LoggerFactory.getLogger(SimulatedKubelet.class);

  private record Pod(String hash, Path root, RunCommand.Running agent) {}

  private record Failure(String hash, String reason, long at, boolean refused) {}

  private final KubernetesClient management;
  private final int maxAgents;
  private final Map<String, Pod> pods = new ConcurrentHashMap<>();
  private final Map<String, Failure> failures = new HashMap<>();
  private final AtomicLong rounds = new AtomicLong();
  private final ScheduledExecutorService worker =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "olmstead-simulated-kubelet");
            thread.setDaemon(true);
            return thread;
          });

  public SimulatedKubelet(KubernetesClient management, int maxAgents) {
    if (maxAgents < 1 || maxAgents > DevHypershift.MAX_HOSTED_CLUSTERS) {
      throw new IllegalArgumentException(
          "maxAgents " + maxAgents + " not in 1.." + DevHypershift.MAX_HOSTED_CLUSTERS);
    }
    this.management = management;
    this.maxAgents = maxAgents;
  }

  public SimulatedKubelet start(Duration period) {
    worker.scheduleWithFixedDelay(this::sync, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    LOG.info(
        "SIMULATION: a simulated kubelet runs the hosted agent Deployments of the simulated management cluster "
            + "in this process (at most {})",
        maxAgents);
    return this;
  }

  /**
   * Rounds completed (every listed Deployment looked at): tests await them rather than waiting for
   * time to pass.
   */
  public long completedRounds() {
    return rounds.get();
  }

  /** namespace/name of the Deployments whose agent runs now. */
  public Set<String> running() {
    return Set.copyOf(pods.keySet());
  }

  /** The pod template hash of the agent running for {@code namespace/name}, if one runs. */
  public Optional<String> runningHash(String deployment) {
    return Optional.ofNullable(pods.get(deployment)).map(Pod::hash);
  }

  /**
   * The private directory holding the files of the pod running for {@code namespace/name}, if one
   * runs.
   */
  public Optional<Path> podDirectory(String deployment) {
    return Optional.ofNullable(pods.get(deployment)).map(Pod::root);
  }

  private void sync() {
    List<Deployment> deployments;
    try {
      deployments =
          management
              .apps()
              .deployments()
              .inAnyNamespace()
              .withLabels(HostedAgentObjects.LABELS)
              .list()
              .getItems();
    } catch (RuntimeException e) {
      LOG.warn(
          "simulated kubelet: cannot list the hosted agent Deployments (tried again in a moment): {}",
          e.toString());
      return;
    }
    try {
      Map<String, Deployment> wanted = new HashMap<>();
      deployments.forEach(d -> wanted.put(key(d), d));
      for (String gone : List.copyOf(pods.keySet())) {
        if (!wanted.containsKey(gone)) {
          stop(gone, "its Deployment is gone");
        }
      }
      failures.keySet().retainAll(wanted.keySet());
      for (Deployment deployment :
          deployments.stream().sorted(Comparator.comparing(SimulatedKubelet::key)).toList()) {
        sync(key(deployment), deployment);
      }
    } catch (RuntimeException e) {
      LOG.warn("simulated kubelet: round failed: {}", e.toString());
    }
    rounds.incrementAndGet();
  }

  private void sync(String key, Deployment deployment) {
    String hash = hash(deployment);
    Pod pod = pods.get(key);
    if (pod != null && pod.hash().equals(hash)) {
      return;
    }
    if (pod != null) {
      stop(key, "its pod template changed (a roll)");
    }
    Failure failure = failures.get(key);
    if (failure != null
        && failure.hash().equals(hash)
        && (failure.refused()
            || System.nanoTime() - failure.at() < TimeUnit.SECONDS.toNanos(RETRY_SECONDS))) {
      return;
    }
    if (pods.size() >= maxAgents) {
      fail(key, hash, "the simulated kubelet runs at most " + maxAgents + " agents", false);
      return;
    }
    Path root = null;
    try {
      root = Files.createTempDirectory("olmstead-pod-", PRIVATE_DIR);
      SimulatedPod spec =
          SimulatedPod.of(
              deployment,
              name ->
                  management
                      .secrets()
                      .inNamespace(deployment.getMetadata().getNamespace())
                      .withName(name)
                      .get(),
              root);
      write(spec);
      refuseBadConfig(spec);
      pods.put(key, new Pod(hash, root, RunCommand.start(spec.env())));
      failures.remove(key);
      LOG.info("simulated kubelet: agent of Deployment {} started (pod template {})", key, hash);
    } catch (SimulatedPod.Refused e) {
      delete(root);
      fail(key, hash, e.getMessage(), true);
    } catch (SimulatedPod.Waiting | ConfigException e) {
      delete(
          root); // a Secret not there yet, a guest API not reachable yet: as a kubelet restarting
      // the container
      fail(key, hash, e.getMessage(), false);
    } catch (IOException | RuntimeException e) {
      delete(root);
      fail(key, hash, e.toString(), false);
    }
  }

  /**
   * Logged once per reason and pod template; a refused template waits for the next one, others are
   * retried.
   */
  private void fail(String key, String hash, String reason, boolean refused) {
    Failure before = failures.put(key, new Failure(hash, reason, System.nanoTime(), refused));
    if (before == null || !before.hash().equals(hash) || !before.reason().equals(reason)) {
      LOG.warn(
          "simulated kubelet: agent of Deployment {} not started{}: {}",
          key,
          refused
              ? " (refused until its pod template changes)"
              : " (tried again every " + RETRY_SECONDS + " s)",
          reason);
    }
  }

  /** What the agent's configuration refuses, the template must change for: refused, not retried. */
  private static void refuseBadConfig(SimulatedPod spec) throws SimulatedPod.Refused {
    try {
      AgentConfig.fromMap(spec.env());
    } catch (ConfigException e) {
      throw new SimulatedPod.Refused(e.getMessage());
    }
  }

  private static void write(SimulatedPod spec) throws IOException {
    for (Path dir : spec.directories()) {
      Files.createDirectories(dir, PRIVATE_DIR);
    }
    for (Map.Entry<Path, byte[]> file : spec.files().entrySet()) {
      Files.createDirectories(file.getKey().getParent(), PRIVATE_DIR);
      Files.write(
          Files.createFile(
              file.getKey(),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))),
          file.getValue());
    }
  }

  /**
   * Listed as running until its agent is stopped and its files deleted (as a pod is until it has
   * terminated).
   */
  private void stop(String key, String why) {
    Pod pod = pods.get(key);
    if (pod == null) {
      return;
    }
    try {
      pod.agent().close();
    } catch (RuntimeException e) {
      LOG.warn(
          "simulated kubelet: agent of Deployment {} did not stop cleanly: {}", key, e.toString());
    }
    delete(pod.root());
    pods.remove(key);
    LOG.info("simulated kubelet: agent of Deployment {} stopped: {}", key, why);
  }

  private static void delete(Path root) {
    if (root == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      LOG.warn("simulated kubelet: cannot delete {}: {}", root, e.toString());
    }
  }

  private static String key(Deployment d) {
    return d.getMetadata().getNamespace() + "/" + d.getMetadata().getName();
  }

  /**
   * The pod template's hash annotation, else its generation: what changes when the template does.
   */
  static String hash(Deployment d) {
    Map<String, String> annotations =
        d.getSpec() == null
                || d.getSpec().getTemplate() == null
                || d.getSpec().getTemplate().getMetadata() == null
            ? null
            : d.getSpec().getTemplate().getMetadata().getAnnotations();
    String hash = annotations == null ? null : annotations.get(HostedAgentObjects.HASH_ANNOTATION);
    return hash != null
        ? hash
        : "generation-"
            + d.getMetadata().getGeneration()
            + "-"
            + d.getMetadata().getResourceVersion();
  }

  /** Stops the loop, then every agent (their files deleted). */
  @Override
  public void close() {
    worker.shutdownNow();
    try {
      if (!worker.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("simulated kubelet: a round still under way after 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (String key : List.copyOf(pods.keySet())) {
      stop(key, "the simulated kubelet stops");
    }
  }
}
