package io.olmstead.controlplane.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One container of a pod spec run as a kubelet would, in Debian's {@code bubblewrap}: the host's
 * root read-only, the container's user id (its security context, else the image's), only its {@code
 * emptyDir} mounts writable, its secret volumes read-only with the test's content, the service
 * account token mounted unless the pod turns it off, and only the image's and the container's
 * environment. The network is the host's, so tests give ports of their own.
 */
final class PodSandbox implements AutoCloseable {
  static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
  private static final String BWRAP = "bwrap";

  private final Process process;
  private final Path log;
  private final Map<String, Path> writable;

  private PodSandbox(Process process, Path log, Map<String, Path> writable) {
    this.process = process;
    this.log = log;
    this.writable = writable;
  }

  /**
   * Why sandboxes cannot run here (no {@code bwrap}, or no user namespaces), or empty when they
   * can.
   */
  static Optional<String> unavailable() {
    try {
      Process probe =
          new ProcessBuilder(
                  BWRAP, "--ro-bind", "/", "/", "--unshare-user", "--uid", "65532", "true")
              .redirectErrorStream(true)
              .start();
      if (!probe.waitFor(30, TimeUnit.SECONDS)) {
        probe.destroyForcibly();
        return Optional.of("bwrap did not answer within 30 s");
      }
      String output =
          new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return probe.exitValue() == 0
          ? Optional.empty()
          : Optional.of("bwrap cannot create a user namespace here: " + output);
    } catch (IOException e) {
      return Optional.of("bwrap is not installed (apt-get install bubblewrap)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
  }

  /**
   * What the kubelet gives a pod besides its spec: the pod's name, secret values by {@code
   * secret/key}, the files of secret volumes by secret name, and environment variables the test
   * sets over the container's (ports, the API).
   */
  record Kubelet(
      String podName,
      Map<String, String> secretKeys,
      Map<String, Map<String, String>> secretVolumes,
      Map<String, String> environment) {}

  /**
   * Starts {@code image}'s entrypoint with the container's arguments; files go under {@code work}.
   */
  static PodSandbox start(
      JibImage image, Path jar, PodSpec pod, Container container, Kubelet kubelet, Path work)
      throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                BWRAP,
                "--unshare-user",
                "--unshare-pid",
                "--die-with-parent",
                "--uid",
                String.valueOf(uid(image, pod, container)),
                "--gid",
                String.valueOf(image.gid()),
                "--chdir",
                "/",
                "--clearenv"));
    boolean serviceAccount = !Boolean.FALSE.equals(pod.getAutomountServiceAccountToken());
    Set<String> mountPaths = new HashSet<>();
    container.getVolumeMounts().forEach(m -> mountPaths.add(m.getMountPath()));
    if (serviceAccount) {
      mountPaths.add(SERVICE_ACCOUNT_DIR);
    }
    command.addAll(hostRoot(mountPaths));
    Map<String, Path> writable = new LinkedHashMap<>();
    for (VolumeMount mount : container.getVolumeMounts()) {
      Volume volume =
          pod.getVolumes().stream()
              .filter(v -> v.getName().equals(mount.getName()))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no volume named " + mount.getName()));
      Path dir = Files.createDirectories(work.resolve("volume-" + volume.getName()));
      if (volume.getEmptyDir() != null && !Boolean.TRUE.equals(mount.getReadOnly())) {
        writable.put(mount.getMountPath(), dir);
        command.addAll(List.of("--bind", dir.toString(), mount.getMountPath()));
      } else if (volume.getSecret() != null) {
        Map<String, String> files =
            kubelet.secretVolumes().getOrDefault(volume.getSecret().getSecretName(), Map.of());
        for (Map.Entry<String, String> file : files.entrySet()) {
          Files.writeString(dir.resolve(file.getKey()), file.getValue());
        }
        command.addAll(List.of("--ro-bind", dir.toString(), mount.getMountPath()));
      } else {
        throw new IllegalStateException(
            "volume " + volume.getName() + ": only emptyDir and secret volumes are run");
      }
    }
    if (serviceAccount) {
      Path dir = Files.createDirectories(work.resolve("serviceaccount"));
      Files.writeString(dir.resolve("token"), "test-service-account-token");
      Files.writeString(dir.resolve("namespace"), "olmstead-test");
      command.addAll(List.of("--ro-bind", dir.toString(), SERVICE_ACCOUNT_DIR));
    }
    command.addAll(List.of("--remount-ro", "/"));
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    environment.put("HOSTNAME", kubelet.podName());
    environment.putAll(image.environment());
    for (EnvVar env : container.getEnv()) {
      value(env, kubelet).ifPresent(v -> environment.put(env.getName(), v));
    }
    environment.putAll(kubelet.environment());
    environment.forEach((name, value) -> command.addAll(List.of("--setenv", name, value)));
    command.addAll(
        image.command(
            ProcessHandle.current().info().command().orElse("java"), jar, container.getArgs()));
    Path log = work.resolve("container.log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new PodSandbox(process, log, writable);
  }

  /**
   * The host's root as the image's: its folders read-only in a root where the mount points are made
   * as a container runtime makes them (a folder holding one is rebuilt from its entries), then
   * read-only too; an empty {@code /tmp} (the image has one) and no {@code /var} or {@code /run}.
   */
  private static List<String> hostRoot(Set<String> mountPaths) throws IOException {
    List<String> args = new ArrayList<>(List.of("--tmpfs", "/"));
    expose(Path.of("/"), mountPaths, Set.of("proc", "dev", "tmp", "var", "run"), args);
    args.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--dir", "/tmp"));
    return args;
  }

  private static void expose(
      Path dir, Set<String> mountPaths, Set<String> skipped, List<String> args) throws IOException {
    try (var entries = Files.list(dir)) {
      for (Path entry : entries.sorted().toList()) {
        String path = entry.toString();
        if (skipped.contains(entry.getFileName().toString())) {
          continue;
        }
        if (mountPaths.stream().anyMatch(m -> m.startsWith(path + "/"))) {
          args.addAll(List.of("--dir", path));
          if (!Files.isSymbolicLink(entry) && Files.isDirectory(entry)) {
            expose(entry, mountPaths, Set.of(), args);
          }
        } else if (Files.isSymbolicLink(entry)) {
          args.addAll(List.of("--symlink", Files.readSymbolicLink(entry).toString(), path));
        } else {
          args.addAll(List.of("--ro-bind", path, path));
        }
      }
    }
  }

  private static int uid(JibImage image, PodSpec pod, Container container) {
    Long uid =
        Optional.ofNullable(container.getSecurityContext())
            .map(SecurityContext::getRunAsUser)
            .orElse(
                pod.getSecurityContext() == null ? null : pod.getSecurityContext().getRunAsUser());
    return uid == null ? image.uid() : uid.intValue();
  }

  private static Optional<String> value(EnvVar env, Kubelet kubelet) {
    if (env.getValueFrom() == null) {
      return Optional.ofNullable(env.getValue());
    }
    if (env.getValueFrom().getSecretKeyRef() != null) {
      var ref = env.getValueFrom().getSecretKeyRef();
      String value = kubelet.secretKeys().get(ref.getName() + "/" + ref.getKey());
      if (value == null && !Boolean.TRUE.equals(ref.getOptional())) {
        throw new IllegalStateException(
            env.getName() + ": the test gives no value for " + ref.getName() + "/" + ref.getKey());
      }
      return Optional.ofNullable(value);
    }
    if (env.getValueFrom().getFieldRef() != null
        && "metadata.name".equals(env.getValueFrom().getFieldRef().getFieldPath())) {
      return Optional.of(kubelet.podName());
    }
    throw new IllegalStateException(env.getName() + ": a source the sandbox does not resolve");
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(log unreadable: " + e.getMessage() + ")";
    }
  }

  /** The host folder behind each writable mount, by mount path. */
  Map<String, Path> writable() {
    return writable;
  }

  /** The JVM's command line, read from inside the sandbox's process tree. */
  List<String> javaArguments() {
    return process
        .descendants()
        .filter(p -> p.info().command().filter(c -> c.endsWith("/java")).isPresent())
        .map(p -> p.info().arguments())
        .flatMap(Optional::stream)
        .map(List::of)
        .findFirst()
        .orElse(List.of());
  }

  /** Stops the container as the kubelet does: SIGTERM, then SIGKILL after a grace period. */
  @Override
  public void close() throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
