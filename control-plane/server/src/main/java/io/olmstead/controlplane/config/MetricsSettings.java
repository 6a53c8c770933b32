package io.olmstead.controlplane.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who may read {@code /metrics}. By default anyone who can reach the port (as kube-state-metrics
 * and Argo CD serve theirs: keep it on a network only Prometheus reaches). With {@code
 * OLMSTEAD_METRICS_TOKEN_FILE} set, only callers presenting that file's token as {@code
 * Authorization: Bearer ...}; the token is read once at start and kept only as its SHA-256,
 * compared in constant time, and never logged.
 */
public final class MetricsSettings {
  public static final String TOKEN_FILE = "OLMSTEAD_METRICS_TOKEN_FILE";
  public static final Set<String> ENVIRONMENT = Set.of(TOKEN_FILE);
  static final int MIN_TOKEN_LENGTH = 16;
  private static final String BEARER = "Bearer ";

  private final Optional<Path> tokenFile;
  private final byte[] tokenHash;

  private MetricsSettings(Optional<Path> tokenFile, byte[] tokenHash) {
    this.tokenFile = tokenFile;
    this.tokenHash = tokenHash;
  }

  /** {@code /metrics} open to anyone who reaches the port. */
  public static MetricsSettings open() {
    return new MetricsSettings(Optional.empty(), null);
  }

  public static MetricsSettings fromEnvironment(Map<String, String> environment) {
    Optional<String> file = new EnvReader(environment).string(TOKEN_FILE);
    if (file.isEmpty()) {
      return open();
    }
    Path path = Path.of(file.get());
    String token;
    try {
      token = Files.readString(path, StandardCharsets.UTF_8).strip();
    } catch (IOException | RuntimeException e) {
      throw new ConfigException(TOKEN_FILE, "'" + path + "' is not a readable file");
    }
    if (token.length() < MIN_TOKEN_LENGTH || token.chars().anyMatch(c -> c <= ' ')) {
      throw new ConfigException(
          TOKEN_FILE,
          "'"
              + path
              + "' must hold one token of at least "
              + MIN_TOKEN_LENGTH
              + " characters without spaces");
    }
    return new MetricsSettings(Optional.of(path), sha256(token));
  }

  /** Whether a token is required. */
  public boolean tokenRequired() {
    return tokenHash != null;
  }

  /**
   * Whether a request with this {@code Authorization} header (null when absent) may read the
   * metrics.
   */
  public boolean allows(String authorization) {
    if (tokenHash == null) {
      return true;
    }
    if (authorization == null
        || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return false;
    }
    return MessageDigest.isEqual(
        tokenHash, sha256(authorization.substring(BEARER.length()).strip()));
  }

  private static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return tokenFile.map(f -> "token from " + f).orElse("open");
  }
}
