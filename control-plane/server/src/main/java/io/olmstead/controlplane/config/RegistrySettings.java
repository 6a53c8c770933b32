package io.olmstead.controlplane.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How the control plane talks to OCI registries: credentials file, mirrors, the hosts allowed over
 * plain HTTP, limits and concurrency. Read once from {@code OLMSTEAD_REGISTRY_*} (flags add
 * insecure hosts) and validated at start.
 */
public record RegistrySettings(
    Optional<Path> authFile,
    MirrorRules mirrors,
    Set<String> insecureHosts,
    Set<String> allowLocalHosts,
    long maxManifestBytes,
    long maxLayerBytes,
    int maxLayers,
    int workers,
    int perRegistryConcurrency,
    Duration timeout,
    Duration readTimeout,
    Duration sweep) {

  public static final String AUTH_FILE = "OLMSTEAD_REGISTRY_AUTH_FILE";
  public static final String MIRRORS_FILE = "OLMSTEAD_REGISTRY_MIRRORS_FILE";
  public static final String INSECURE = "OLMSTEAD_REGISTRY_INSECURE";
  public static final String MAX_MANIFEST_BYTES = "OLMSTEAD_REGISTRY_MAX_MANIFEST_BYTES";
  public static final String MAX_LAYER_BYTES = "OLMSTEAD_REGISTRY_MAX_LAYER_BYTES";
  public static final String MAX_LAYERS = "OLMSTEAD_REGISTRY_MAX_LAYERS";
  public static final String WORKERS = "OLMSTEAD_REGISTRY_WORKERS";
  public static final String PER_REGISTRY = "OLMSTEAD_REGISTRY_CONCURRENCY";
  public static final String TIMEOUT_SECONDS = "OLMSTEAD_REGISTRY_TIMEOUT_SECONDS";
  public static final String READ_TIMEOUT_SECONDS = "OLMSTEAD_REGISTRY_READ_TIMEOUT_SECONDS";
  public static final String ALLOW_LOCAL = "OLMSTEAD_REGISTRY_ALLOW_LOCAL";

  /**
   * How often due catalog polls and due unpack retries are taken, and the first retry's wait (it
   * doubles).
   */
  public static final String SWEEP_SECONDS = "OLMSTEAD_REGISTRY_SWEEP_SECONDS";

  static final int MAX_SWEEP_SECONDS = 300;
  static final int MAX_TIMEOUT_SECONDS = 3600;

  /**
   * Every variable read here (the deploy manifests are checked against the control plane's list).
   */
  public static final Set<String> ENVIRONMENT =
      Set.of(
          AUTH_FILE,
          MIRRORS_FILE,
          INSECURE,
          MAX_MANIFEST_BYTES,
          MAX_LAYER_BYTES,
          MAX_LAYERS,
          WORKERS,
          PER_REGISTRY,
          TIMEOUT_SECONDS,
          READ_TIMEOUT_SECONDS,
          ALLOW_LOCAL,
          SWEEP_SECONDS);

  public RegistrySettings {
    insecureHosts = Set.copyOf(insecureHosts);
    allowLocalHosts = Set.copyOf(allowLocalHosts);
    for (String host : insecureHosts) {
      checkHost(INSECURE, host);
    }
    for (String host : allowLocalHosts) {
      checkHost(ALLOW_LOCAL, host);
    }
    if (timeout.isZero() || timeout.isNegative() || timeout.toSeconds() > MAX_TIMEOUT_SECONDS) {
      throw new ConfigException(
          TIMEOUT_SECONDS,
          "must be 1.." + MAX_TIMEOUT_SECONDS + " seconds, not " + timeout.toSeconds());
    }
    if (readTimeout.isZero() || readTimeout.isNegative() || readTimeout.compareTo(timeout) > 0) {
      throw new ConfigException(
          READ_TIMEOUT_SECONDS,
          "must be 1 second up to "
              + TIMEOUT_SECONDS
              + " ("
              + timeout.toSeconds()
              + "), not "
              + readTimeout.toSeconds());
    }
    if (sweep.isZero() || sweep.isNegative() || sweep.toSeconds() > MAX_SWEEP_SECONDS) {
      throw new ConfigException(
          SWEEP_SECONDS, "must be 1.." + MAX_SWEEP_SECONDS + " seconds, not " + sweep.toSeconds());
    }
  }

  /** Reads the environment; {@code extraInsecure} are the {@code --insecure-registry} flags. */
  public static RegistrySettings fromEnvironment(
      Map<String, String> environment, List<String> extraInsecure) {
    EnvReader env = new EnvReader(environment);
    Optional<Path> auth = env.string(AUTH_FILE).map(Path::of);
    auth.ifPresent(
        p -> {
          if (!Files.isReadable(p)) {
            throw new ConfigException(AUTH_FILE, "'" + p + "' is not a readable file");
          }
        });
    MirrorRules mirrors =
        env.string(MIRRORS_FILE)
            .map(f -> MirrorRules.read(MIRRORS_FILE, Path.of(f)))
            .orElse(MirrorRules.NONE);
    Set<String> insecure = hosts(env, INSECURE);
    for (String h : extraInsecure) {
      insecure.add(checkHost("--insecure-registry", h.trim()));
    }
    int deadline = env.positiveInt(TIMEOUT_SECONDS, 120);
    return new RegistrySettings(
        auth,
        mirrors,
        insecure,
        hosts(env, ALLOW_LOCAL),
        env.positiveLong(MAX_MANIFEST_BYTES, 4L << 20),
        env.positiveLong(MAX_LAYER_BYTES, 128L << 20),
        env.positiveInt(MAX_LAYERS, 32),
        env.positiveInt(WORKERS, 4),
        env.positiveInt(PER_REGISTRY, 4),
        Duration.ofSeconds(deadline),
        Duration.ofSeconds(env.positiveInt(READ_TIMEOUT_SECONDS, Math.min(30, deadline))),
        Duration.ofSeconds(env.positiveInt(SWEEP_SECONDS, 5)));
  }

  private static Set<String> hosts(EnvReader env, String setting) {
    Set<String> out = new LinkedHashSet<>();
    env.string(setting)
        .ifPresent(
            v -> {
              for (String h : v.split(",")) {
                if (!h.isBlank()) {
                  out.add(checkHost(setting, h.trim()));
                }
              }
            });
    return out;
  }

  /** Defaults with no credentials, no mirrors and the given plain-HTTP hosts (tests, dev). */
  public static RegistrySettings defaults(String... insecure) {
    return fromEnvironment(Map.of(), List.of(insecure));
  }

  public RegistrySettings withLimits(long manifestBytes, long layerBytes, int layers) {
    return new RegistrySettings(
        authFile,
        mirrors,
        insecureHosts,
        allowLocalHosts,
        manifestBytes,
        layerBytes,
        layers,
        workers,
        perRegistryConcurrency,
        timeout,
        readTimeout,
        sweep);
  }

  public RegistrySettings withMirrors(MirrorRules rules) {
    return new RegistrySettings(
        authFile,
        rules,
        insecureHosts,
        allowLocalHosts,
        maxManifestBytes,
        maxLayerBytes,
        maxLayers,
        workers,
        perRegistryConcurrency,
        timeout,
        readTimeout,
        sweep);
  }

  public RegistrySettings withAuthFile(Path file) {
    return new RegistrySettings(
        Optional.of(file),
        mirrors,
        insecureHosts,
        allowLocalHosts,
        maxManifestBytes,
        maxLayerBytes,
        maxLayers,
        workers,
        perRegistryConcurrency,
        timeout,
        readTimeout,
        sweep);
  }

  /** A deadline of {@code t} per operation; the idle timeout is cut to it when longer. */
  public RegistrySettings withTimeout(Duration t) {
    return new RegistrySettings(
        authFile,
        mirrors,
        insecureHosts,
        allowLocalHosts,
        maxManifestBytes,
        maxLayerBytes,
        maxLayers,
        workers,
        perRegistryConcurrency,
        t,
        readTimeout.compareTo(t) > 0 ? t : readTimeout,
        sweep);
  }

  public RegistrySettings withReadTimeout(Duration t) {
    return new RegistrySettings(
        authFile,
        mirrors,
        insecureHosts,
        allowLocalHosts,
        maxManifestBytes,
        maxLayerBytes,
        maxLayers,
        workers,
        perRegistryConcurrency,
        timeout,
        t,
        sweep);
  }

  /**
   * Registries on loopback/link-local addresses to use anyway: the listed insecure and allow-local
   * hosts.
   */
  public RegistrySettings withAllowLocal(String... hosts) {
    return new RegistrySettings(
        authFile,
        mirrors,
        insecureHosts,
        Set.of(hosts),
        maxManifestBytes,
        maxLayerBytes,
        maxLayers,
        workers,
        perRegistryConcurrency,
        timeout,
        readTimeout,
        sweep);
  }

  public RegistrySettings withWorkers(int n) {
    return new RegistrySettings(
        authFile,
        mirrors,
        insecureHosts,
        allowLocalHosts,
        maxManifestBytes,
        maxLayerBytes,
        maxLayers,
        n,
        perRegistryConcurrency,
        timeout,
        readTimeout,
        sweep);
  }

  public Set<String> localAllowed() {
    Set<String> all = new LinkedHashSet<>(insecureHosts);
    all.addAll(allowLocalHosts);
    return all;
  }

  public boolean insecure(String registryHost) {
    return insecureHosts.contains(registryHost);
  }

  private static String checkHost(String setting, String host) {
    if (!host.matches("[A-Za-z0-9.-]+(:[0-9]{1,5})?|\\[[0-9A-Fa-f:]+\\](:[0-9]{1,5})?")) {
      throw new ConfigException(setting, "'" + host + "' is not HOST or HOST:PORT");
    }
    return host;
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    parts.add("authFile=" + authFile.map(Path::toString).orElse("none"));
    parts.add("mirrors=" + mirrors.size());
    parts.add("insecure=" + insecureHosts);
    parts.add("allowLocal=" + allowLocalHosts);
    return "RegistrySettings" + parts;
  }
}
