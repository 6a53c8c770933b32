package io.olmstead.agent.reconcile;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ParseLimits;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catalog content fetched from the control plane by revision digest ({@code GET
 * /api/v1/agent/catalogs/{digest}}, cluster credential, gzip accepted), parsed and validated with
 * olm-core once per digest and kept for the few digests in use. Called from reconcile worker
 * threads (blocking is fine there).
 */
public final class ControlPlaneCatalogs implements CatalogProvider {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneCatalogs.class);
  private static final int KEEP = 4;
  static final Duration FIRST_RETRY = Duration.ofSeconds(5);
  static final Duration LAST_RETRY = Duration.ofMinutes(5);

  /**
   * Bytes after decoding: the parser's own total limit, so nothing it would refuse is held in
   * memory.
   */
  private static final long MAX_BODY = ParseLimits.defaults().maxTotalBytes();

  private final URI base;
  private final CredentialStorage credentials;
  // HTTP/1.1: the control plane serves its once-gzipped catalog bytes to HTTP/1.1 clients, and
  // identity over h2c
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final Cache<String, Catalog> byDigest =
      Caffeine.newBuilder().maximumSize(KEEP).executor(Runnable::run).build();

  // a digest whose fetch or parse failed is not tried again before its time: every namespace
  // waiting for it asks,
  // and a catalog that cannot load would otherwise be downloaded and parsed again for each of them
  private final Cache<String, Failure> failures =
      Caffeine.newBuilder().maximumSize(64).executor(Runnable::run).build();
  private final Clock clock;

  /** Unpacked bundle images by digest (objects as base64 JSON: a few hundred KiB per bundle). */
  private static final long BUNDLE_CACHE_BYTES = 32L * 1024 * 1024;

  private final ControlPlaneBundles bundles;

  /** A failed digest: when it may be tried again, and how long the next wait is. */
  private record Failure(Instant retryAt, Duration nextWait) {}

  public ControlPlaneCatalogs(URI controlPlane, CredentialStorage credentials) {
    this(controlPlane, credentials, Clock.systemUTC());
  }

  ControlPlaneCatalogs(URI controlPlane, CredentialStorage credentials, Clock clock) {
    this.base = controlPlane;
    this.credentials = credentials;
    this.clock = clock;
    this.bundles = new ControlPlaneBundles(controlPlane, credentials, BUNDLE_CACHE_BYTES);
  }

  @Override
  public BundleContent content(Bundle bundle) {
    return bundles.content(bundle);
  }

  @Override
  public synchronized Optional<Catalog> catalog(String name, String digest) {
    if (digest == null || digest.isBlank()) {
      return Optional.empty();
    }
    Catalog cached = byDigest.getIfPresent(digest);
    if (cached != null) {
      return Optional.of(cached);
    }
    Failure failed = failures.getIfPresent(digest);
    if (failed != null && clock.instant().isBefore(failed.retryAt())) {
      return Optional.empty();
    }
    Optional<String> credential = credentials.load();
    if (credential.isEmpty()) {
      return Optional.empty(); // not enrolled yet; the pass is retried
    }
    Optional<Catalog> loaded = fetch(name, digest, credential.get());
    if (loaded.isPresent()) {
      failures.invalidate(digest);
    } else {
      Duration wait = failed == null ? FIRST_RETRY : failed.nextWait();
      failures.put(
          digest, new Failure(clock.instant().plus(wait), min(wait.multipliedBy(2), LAST_RETRY)));
    }
    return loaded;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private Optional<Catalog> fetch(String name, String digest, String credential) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(base.resolve("/api/v1/agent/catalogs/" + digest))
              .header("Authorization", "Bearer " + credential)
              .header("Accept-Encoding", "gzip")
              .timeout(Duration.ofMinutes(2))
              .GET()
              .build();
      HttpResponse<InputStream> response =
          http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      byte[] content;
      try (InputStream body = response.body()) {
        if (response.statusCode() != 200) {
          LOG.warn("catalog {} ({}) not fetched: HTTP {}", name, digest, response.statusCode());
          return Optional.empty();
        }
        content =
            EncodedBody.read(
                body, response.headers().firstValue("Content-Encoding").orElse(""), MAX_BODY);
      }
      Catalog catalog = parse(content, response.headers().firstValue("Content-Type").orElse(""));
      byDigest.put(digest, catalog);
      LOG.info(
          "catalog {} ({}) loaded: {} packages, {} bundles",
          name,
          digest,
          catalog.packageCount(),
          catalog.bundleCount());
      return Optional.of(catalog);
    } catch (IOException | FbcException e) {
      LOG.warn("catalog {} ({}) not loaded: {}", name, digest, e.getMessage());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  static Catalog parse(byte[] content) throws FbcException {
    return parse(content, "");
  }

  /** Parses content as uploaded: tar.gz by its magic bytes, YAML by its media type, else JSON. */
  static Catalog parse(byte[] content, String mediaType) throws FbcException {
    FbcParser parser = new FbcParser();
    boolean gzip = content.length > 2 && (content[0] & 0xff) == 0x1f && (content[1] & 0xff) == 0x8b;
    String fileName =
        mediaType.toLowerCase(Locale.ROOT).contains("yaml") ? "catalog.yaml" : "catalog.json";
    DeclarativeConfig config = gzip ? parser.parseTarGz(content) : parser.parse(fileName, content);
    return CatalogValidator.validate(config, ValidationMode.LENIENT)
        .catalog()
        .orElseThrow(() -> new FbcException("catalog", 0, 0, "catalog content did not validate"));
  }
}
