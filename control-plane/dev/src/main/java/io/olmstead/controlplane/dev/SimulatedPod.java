package io.olmstead.controlplane.dev;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.olmstead.agent.config.AgentConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * SIMULATION: what a kubelet makes of a hosted agent Deployment's pod template (pure: the Secrets
 * come from {@code secrets}, nothing is written here). Each mounted volume becomes a directory
 * under the pod's own root (a Secret volume: its keys, or its {@code items}, as files; an {@code
 * emptyDir}: an empty directory); the container's environment is resolved ({@code value}, or {@code
 * valueFrom.secretKeyRef}), and a value naming a file under a mount path is mapped to that file
 * under the root: an agent in this process cannot see the pod's mount paths.
 */
record SimulatedPod(Map<String, String> env, Map<Path, byte[]> files, List<Path> directories) {
  /** The health port: 0 (off), since every agent here shares this process's network namespace. */
  static final String HEALTH_PORT = "OLMSTEAD_AGENT_HEALTH_PORT";

  /** The pod cannot be run as it is (the message names the setting, never a Secret's content). */
  static final class Refused extends Exception {
    Refused(String message) {
      super(message);
    }
  }

  /** The pod cannot be run yet (a Secret or key it mounts is missing): a kubelet keeps trying. */
  static final class Waiting extends Exception {
    Waiting(String message) {
      super(message);
    }
  }

  static SimulatedPod of(Deployment deployment, Function<String, Secret> read, Path root)
      throws Refused, Waiting {
    // each Secret read once per pod: its volumes and env see one version of it, and the API one
    // call
    Map<String, Optional<Secret>> seen = new HashMap<>();
    Function<String, Secret> secrets =
        name -> seen.computeIfAbsent(name, n -> Optional.ofNullable(read.apply(n))).orElse(null);
    PodSpec spec =
        deployment.getSpec() == null || deployment.getSpec().getTemplate() == null
            ? null
            : deployment.getSpec().getTemplate().getSpec();
    if (spec == null || spec.getContainers() == null || spec.getContainers().size() != 1) {
      throw new Refused("spec.template.spec.containers: exactly one container (the agent) is run");
    }
    Container container = spec.getContainers().get(0);
    if (!List.of("run").equals(container.getArgs())
        || (container.getCommand() != null && !container.getCommand().isEmpty())) {
      String args = String.valueOf(container.getArgs());
      throw new Refused(
          "containers[0].args must be [run] (olmstead-agent run), not "
              + (args.length() > 100 ? args.substring(0, 100) + "..." : args)
              + (container.getCommand() == null || container.getCommand().isEmpty()
                  ? ""
                  : " with a command"));
    }
    Map<String, Volume> volumes = new LinkedHashMap<>();
    if (spec.getVolumes() != null) {
      spec.getVolumes().forEach(v -> volumes.put(v.getName(), v));
    }
    Map<Path, byte[]> files = new LinkedHashMap<>();
    List<Path> directories = new ArrayList<>();
    Map<String, Path> mounts = new LinkedHashMap<>();
    for (VolumeMount mount :
        container.getVolumeMounts() == null
            ? List.<VolumeMount>of()
            : container.getVolumeMounts()) {
      Volume volume = volumes.get(mount.getName());
      if (volume == null || !mount.getName().matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
        throw new Refused("volumeMounts " + mount.getName() + ": no such volume");
      }
      Path dir = root.resolve(mount.getName());
      mounts.put(trimSlash(mount.getMountPath()), dir);
      directories.add(dir);
      if (volume.getSecret() != null) {
        files.putAll(secretFiles(volume, secrets.apply(volume.getSecret().getSecretName()), dir));
      } else if (volume.getEmptyDir() == null) {
        throw new Refused(
            "volumes " + mount.getName() + ": only secret and emptyDir volumes are simulated");
      }
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvVar var : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
      env.put(var.getName(), value(var, secrets, mounts));
    }
    env.put(HEALTH_PORT, "0");
    hostedWithItsOwnFiles(env, root);
    return new SimulatedPod(env, files, directories);
  }

  /**
   * The agent runs in the dev process, which can read the developer's own files: it must be in
   * hosted mode (else it would use the process's kubeconfig, the developer's cluster) with its
   * kubeconfig and credential in this pod's volumes (never a path of this machine).
   */
  private static void hostedWithItsOwnFiles(Map<String, String> env, Path root) throws Refused {
    if (!"hosted".equals(env.get(AgentConfig.MODE))) {
      throw new Refused("env " + AgentConfig.MODE + " must be hosted");
    }
    for (String setting : List.of(AgentConfig.KUBECONFIG, AgentConfig.CREDENTIAL_FILE)) {
      String value = env.get(setting);
      if (value == null || value.isEmpty() || !Path.of(value).normalize().startsWith(root)) {
        throw new Refused("env " + setting + " must name a file in one of the pod's volumes");
      }
    }
  }

  private static Map<Path, byte[]> secretFiles(Volume volume, Secret secret, Path dir)
      throws Waiting, Refused {
    String name = volume.getSecret().getSecretName();
    if (secret == null) {
      throw new Waiting("secret " + name + " (volume " + volume.getName() + ") not found");
    }
    Map<String, byte[]> data = data(secret);
    Map<Path, byte[]> files = new LinkedHashMap<>();
    List<KeyToPath> items = volume.getSecret().getItems();
    if (items == null || items.isEmpty()) {
      for (Map.Entry<String, byte[]> e : data.entrySet()) {
        files.put(file(dir, e.getKey(), volume), e.getValue());
      }
      return files;
    }
    for (KeyToPath item : items) {
      byte[] value = data.get(item.getKey());
      if (value == null) {
        throw new Waiting(
            "secret "
                + name
                + " has no key "
                + item.getKey()
                + " (volume "
                + volume.getName()
                + ")");
      }
      files.put(file(dir, item.getPath(), volume), value);
    }
    return files;
  }

  /** A file in the volume's directory: a path leaving it (.., absolute) is refused. */
  private static Path file(Path dir, String path, Volume volume) throws Refused {
    Path file = dir.resolve(path).normalize();
    if (path.startsWith("/") || !file.startsWith(dir) || file.equals(dir)) {
      throw new Refused(
          "volumes " + volume.getName() + ": item path " + path + " leaves the volume");
    }
    return file;
  }

  private static String value(
      EnvVar var, Function<String, Secret> secrets, Map<String, Path> mounts)
      throws Refused, Waiting {
    if (var.getValueFrom() == null) {
      return mapped(var.getValue() == null ? "" : var.getValue(), mounts);
    }
    SecretKeySelector ref = var.getValueFrom().getSecretKeyRef();
    if (ref == null) {
      throw new Refused(
          "env " + var.getName() + ": only value and valueFrom.secretKeyRef are simulated");
    }
    Secret secret = secrets.apply(ref.getName());
    byte[] value = secret == null ? null : data(secret).get(ref.getKey());
    if (value == null) {
      if (Boolean.TRUE.equals(ref.getOptional())) {
        return "";
      }
      throw new Waiting(
          "env "
              + var.getName()
              + ": secret "
              + ref.getName()
              + " key "
              + ref.getKey()
              + " not found");
    }
    return new String(value, StandardCharsets.UTF_8);
  }

  /**
   * A value under a mount path names the same file under the volume's directory (the longest mount
   * path wins).
   */
  static String mapped(String value, Map<String, Path> mounts) {
    String best = null;
    for (String mountPath : mounts.keySet()) {
      if ((value.equals(mountPath) || value.startsWith(mountPath + "/"))
          && (best == null || mountPath.length() > best.length())) {
        best = mountPath;
      }
    }
    if (best == null) {
      return value;
    }
    String rest = value.substring(best.length());
    Path dir = mounts.get(best);
    Path file = rest.isEmpty() ? dir : dir.resolve(rest.substring(1)).normalize();
    // a path climbing out of its mount (..) names nothing in the pod: left as is, and refused where
    // it matters
    return file.startsWith(dir) ? file.toString() : value;
  }

  private static Map<String, byte[]> data(Secret secret) {
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> data.put(k, Base64.getDecoder().decode(v)));
    }
    if (secret.getStringData() != null) {
      secret.getStringData().forEach((k, v) -> data.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    return data;
  }

  private static String trimSlash(String path) {
    String p = path == null ? "" : path;
    return p.endsWith("/") && p.length() > 1 ? p.substring(0, p.length() - 1) : p;
  }

  /** Never the files' content (credentials, kubeconfigs). */
  @Override
  public String toString() {
    return "SimulatedPod[env=" + env.keySet() + ", files=" + files.keySet() + "]";
  }
}
