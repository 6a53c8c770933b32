package io.olmstead.controlplane.ui;

import io.olmstead.controlplane.auth.OidcIssuer;
import io.olmstead.controlplane.config.OidcSettings;
import io.olmstead.controlplane.http.SecurityHeaders;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the dashboard needs for "Sign in with SSO" (authorization code with PKCE, run in the browser
 * by ui/login.js): {@code GET /ui/config.json}, unauthenticated, with the issuer's authorization
 * and token endpoints (from its discovery document, cached for an hour; a failure for {@code
 * OLMSTEAD_OIDC_RETRY_SECONDS}), the public client id, the scopes and which token to keep. No
 * secret is in it: the client is public and PKCE stands in for a secret. When OIDC is configured
 * the dashboard's Content-Security-Policy lets the page call the issuer's origin and its token
 * endpoint's (the code exchange).
 */
public final class OidcLogin {
  private static final Logger LOG = LoggerFactory.getLogger(OidcLogin.class);

  private final OidcSettings settings;
  private final OidcIssuer issuer;
  private volatile Endpoints endpoints;

  /** The issuer's endpoints as its discovery document gave them. */
  record Endpoints(String authorization, String token) {}

  /** For {@code issuer}'s settings; without one (OIDC off) the config says so. */
  public OidcLogin(OidcSettings settings, OidcIssuer issuer) {
    this.settings = settings;
    this.issuer = issuer;
  }

  /** Mounts {@code /ui/config.json} and the CSP widening; ahead of the dashboard's own routes. */
  public void mount(Router router) {
    router.get("/ui/config.json").handler(SecurityHeaders::dashboard).handler(this::config);
    if (settings.enabled()) {
      router.route("/ui/*").handler(this::widenCsp);
    }
  }

  private void config(RoutingContext ctx) {
    Future<JsonObject> oidc =
        issuer != null
            ? endpoints()
                .map(
                    e ->
                        new JsonObject()
                            .put("issuer", settings.issuer().orElseThrow())
                            .put("clientId", settings.clientId())
                            .put("authorizationEndpoint", e.authorization())
                            .put("tokenEndpoint", e.token())
                            .put("scopes", settings.scopes())
                            .put("token", settings.dashboardToken()))
            : Future.succeededFuture(null);
    oidc.onComplete(
        ar -> {
          JsonObject body = new JsonObject().put("oidc", ar.succeeded() ? ar.result() : null);
          if (ar.failed()) {
            body.put(
                "oidcError",
                "single sign-on is configured but the issuer cannot be reached; use an API token");
            LOG.debug("OIDC discovery for the dashboard failed: {}", ar.cause().toString());
          }
          ctx.response()
              .putHeader("Content-Type", "application/json")
              .putHeader("Cache-Control", "no-store")
              .end(body.encode());
        });
  }

  /**
   * The endpoints from the issuer's discovery document (shared, cached, failures too: {@link
   * OidcIssuer}).
   */
  Future<Endpoints> endpoints() {
    return issuer
        .discovery()
        .get()
        .map(
            doc ->
                new Endpoints(
                    httpUrl(doc, "authorization_endpoint"), httpUrl(doc, "token_endpoint")))
        .onSuccess(e -> endpoints = e);
  }

  private static String httpUrl(JsonObject doc, String key) {
    Object value = doc.getValue(key);
    URI uri = value instanceof String s ? URI.create(s) : null;
    if (uri == null
        || !("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw new IllegalStateException("the discovery document's " + key + " is not an http(s) URL");
    }
    return uri.toString();
  }

  /**
   * Adds the issuer's origins to connect-src once the dashboard's headers are set (they are written
   * last).
   */
  private void widenCsp(RoutingContext ctx) {
    ctx.addHeadersEndHandler(
        v -> {
          String csp = ctx.response().headers().get("Content-Security-Policy");
          if (csp != null) {
            ctx.response()
                .headers()
                .set(
                    "Content-Security-Policy",
                    csp.replace(
                        "connect-src 'self'", "connect-src 'self' " + String.join(" ", origins())));
          }
        });
    ctx.next();
  }

  private Set<String> origins() {
    Set<String> out = new LinkedHashSet<>();
    out.add(origin(settings.issuer().orElseThrow()));
    Endpoints e = endpoints;
    if (e != null) {
      out.add(origin(e.token()));
    }
    return out;
  }

  private static String origin(String url) {
    URI uri = URI.create(url);
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
  }
}
