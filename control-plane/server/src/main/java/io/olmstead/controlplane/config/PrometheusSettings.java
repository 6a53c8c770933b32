package io.olmstead.controlplane.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where rollout analysis checks are measured: {@code OLMSTEAD_PROMETHEUS_URL} (http or https;
 * unset: no Prometheus, checks are inconclusive), {@code OLMSTEAD_PROMETHEUS_TOKEN_FILE} (a file
 * holding the bearer token, re-read for every query so a rotated token is picked up; unset: no
 * Authorization header), {@code OLMSTEAD_PROMETHEUS_TIMEOUT_SECONDS} (the whole request, default
 * 10) and {@code OLMSTEAD_PROMETHEUS_MAX_RESPONSE_BYTES} (default 1 MiB).
 */
public record PrometheusSettings(
    Optional<URI> url, Optional<String> tokenFile, int timeoutSeconds, long maxResponseBytes) {
  public static final String URL = "OLMSTEAD_PROMETHEUS_URL";
  public static final String TOKEN_FILE = "OLMSTEAD_PROMETHEUS_TOKEN_FILE";
  public static final String TIMEOUT = "OLMSTEAD_PROMETHEUS_TIMEOUT_SECONDS";
  public static final String MAX_RESPONSE = "OLMSTEAD_PROMETHEUS_MAX_RESPONSE_BYTES";
  public static final Set<String> ENVIRONMENT = Set.of(URL, TOKEN_FILE, TIMEOUT, MAX_RESPONSE);
  public static final PrometheusSettings NONE =
      new PrometheusSettings(Optional.empty(), Optional.empty(), 10, 1 << 20);

  public static PrometheusSettings fromEnvironment(Map<String, String> environment) {
    EnvReader env = new EnvReader(environment);
    Optional<URI> url = env.string(URL).map(PrometheusSettings::parse);
    int timeout = env.positiveInt(TIMEOUT, 10);
    if (timeout > 300) {
      throw new ConfigException(TIMEOUT, "must be at most 300");
    }
    return new PrometheusSettings(
        url, env.string(TOKEN_FILE), timeout, env.positiveLong(MAX_RESPONSE, 1 << 20));
  }

  private static URI parse(String text) {
    try {
      URI uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null
          || uri.getQuery() != null
          || uri.getUserInfo() != null) {
        throw new ConfigException(
            URL, "'" + text + "' is not an http(s) URL of a Prometheus (no query, no user)");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new ConfigException(URL, "'" + text + "' is not a URL");
    }
  }
}
