package io.olmstead.controlplane.auth;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import io.olmstead.controlplane.config.OidcSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OIDC issuer's discovery document and signing keys (JWKS), each fetched by one caller at a
 * time on two worker threads of their own (never a request's), kept for an hour, and after a
 * failure not asked again for {@link OidcSettings#retry()}. Requests read what is cached and never
 * wait on the issuer for it.
 */
public final class OidcIssuer {
  private static final Logger LOG = LoggerFactory.getLogger(OidcIssuer.class);
  private static final Duration FRESH = Duration.ofHours(1);
  private static final int TIMEOUT_MILLIS = 3_000;
  private static final int MAX_DOCUMENT_BYTES = 512 * 1024;

  private final OidcSettings settings;
  private final WorkerExecutor worker;
  private final DefaultResourceRetriever retriever =
      new DefaultResourceRetriever(TIMEOUT_MILLIS, TIMEOUT_MILLIS, MAX_DOCUMENT_BYTES);
  private final CachedFetch<JsonObject> discovery;
  private final CachedFetch<JWKSet> keys;

  OidcIssuer(Vertx vertx, OidcSettings settings, Clock clock) {
    this.settings = settings;
    this.worker = vertx.createSharedWorkerExecutor("olmstead-oidc", 2);
    this.discovery = new CachedFetch<>(this::fetchDiscovery, clock, FRESH, settings.retry());
    this.keys = new CachedFetch<>(this::fetchKeys, clock, FRESH, settings.retry());
  }

  /** The issuer for these settings, its keys already being fetched; null when OIDC is off. */
  public static OidcIssuer start(Vertx vertx, OidcSettings settings, Clock clock) {
    if (!settings.enabled()) {
      return null;
    }
    OidcIssuer issuer = new OidcIssuer(vertx, settings, clock);
    issuer.keys.peek();
    return issuer;
  }

  String url() {
    return settings.issuer().orElseThrow();
  }

  OidcSettings settings() {
    return settings;
  }

  /** The discovery document, its issuer checked. */
  public CachedFetch<JsonObject> discovery() {
    return discovery;
  }

  CachedFetch<JWKSet> keys() {
    return keys;
  }

  private Future<JsonObject> fetchDiscovery() {
    String issuer = url();
    String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
    return worker
        .executeBlocking(
            () -> {
              JsonObject doc =
                  new JsonObject(
                      retriever
                          .retrieveResource(
                              URI.create(base + "/.well-known/openid-configuration").toURL())
                          .getContent());
              if (!issuer.equals(doc.getString("issuer"))) {
                throw new IllegalStateException("the discovery document names another issuer");
              }
              return doc;
            },
            false)
        .onFailure(e -> failed("discovery document", e));
  }

  private Future<JWKSet> fetchKeys() {
    Future<String> url =
        settings
            .jwksUrl()
            .map(Future::succeededFuture)
            .orElseGet(
                () ->
                    discovery
                        .get()
                        .map(
                            doc -> {
                              if (!(doc.getValue("jwks_uri") instanceof String jwks)) {
                                throw new IllegalStateException(
                                    "the discovery document has no jwks_uri");
                              }
                              return jwks;
                            }));
    return url.compose(
        jwks ->
            worker
                .executeBlocking(
                    () ->
                        JWKSet.parse(
                            retriever.retrieveResource(URI.create(jwks).toURL()).getContent()),
                    false)
                .onFailure(e -> failed("keys (JWKS)", e)));
  }

  private void failed(String what, Throwable e) {
    LOG.warn(
        "OIDC issuer {}: its {} cannot be read ({}); next attempt in {} s at the earliest",
        url(),
        what,
        e.toString(),
        settings.retry().toSeconds());
  }
}
