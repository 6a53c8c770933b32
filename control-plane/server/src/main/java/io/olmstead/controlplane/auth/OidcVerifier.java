package io.olmstead.controlplane.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.olmstead.controlplane.access.RoleMapping;
import io.olmstead.controlplane.config.OidcSettings;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Verifies an OIDC JWT against the issuer's cached keys, on the caller's thread and without waiting
 * on the issuer: asymmetric algorithms only (so neither {@code none} nor HS256 keyed by the public
 * key passes), {@code iss} exactly, {@code aud} containing the audience, {@code exp} in the future
 * and {@code nbf} past (60 s skew), a non-empty {@code sub}. Keys not loaded yet: 503 naming the
 * issuer. A key id not among the keys: one refresh of the keys per retry interval is awaited, else
 * 401 at once. The groups claim is mapped to a role and teams; an identity no entry maps is refused
 * (403).
 */
final class OidcVerifier {
  private static final Set<JWSAlgorithm> ALGORITHMS =
      Set.of(
          JWSAlgorithm.RS256,
          JWSAlgorithm.RS384,
          JWSAlgorithm.RS512,
          JWSAlgorithm.PS256,
          JWSAlgorithm.PS384,
          JWSAlgorithm.PS512,
          JWSAlgorithm.ES256,
          JWSAlgorithm.ES384,
          JWSAlgorithm.ES512,
          JWSAlgorithm.EdDSA);

  private final OidcIssuer issuer;
  private final OidcSettings settings;
  private final Clock clock;

  /** A verified identity: its principal and when its token expires. */
  record Verified(Principal principal, Instant expiresAt) {}

  OidcVerifier(OidcIssuer issuer, Clock clock) {
    this.issuer = issuer;
    this.settings = issuer.settings();
    this.clock = clock;
  }

  /** The verified identity, or a failed future with a 401, 403 or 503 {@link ApiException}. */
  Future<Verified> verify(String jwt) {
    SignedJWT token;
    Instant expiresAt;
    try {
      token = SignedJWT.parse(jwt);
      expiresAt = precheck(token);
    } catch (ParseException e) {
      return Future.failedFuture(OidcClaims.invalid("is not a signed JWT"));
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    JWKSet keys = issuer.keys().peek().orElse(null);
    if (keys == null) {
      return Future.failedFuture(unavailable());
    }
    if (publishes(keys, token)) {
      return Future.succeededFuture(check(token, keys, expiresAt));
    }
    // one refresh per retry interval; refused or not, a key still missing gets the same answer
    return issuer
        .keys()
        .refresh()
        .recover(e -> Future.failedFuture(notPublished()))
        .map(
            fresh -> {
              if (!publishes(fresh, token)) {
                throw notPublished();
              }
              return check(token, fresh, expiresAt);
            });
  }

  private static boolean publishes(JWKSet keys, SignedJWT token) {
    return !new JWKSelector(JWKMatcher.forJWSHeader(token.getHeader())).select(keys).isEmpty();
  }

  private ApiException notPublished() {
    return OidcClaims.invalid(
        "is signed with a key the issuer does not publish (its keys are fetched again at most "
            + "every "
            + settings.retry().toSeconds()
            + " s)");
  }

  /**
   * The checks that need no key (algorithm, issuer, subject, times); returns when the token
   * expires.
   */
  private Instant precheck(SignedJWT token) throws ParseException {
    if (!ALGORITHMS.contains(token.getHeader().getAlgorithm())) {
      throw OidcClaims.invalid("is not signed with an asymmetric algorithm");
    }
    Map<String, Object> claims = token.getPayload().toJSONObject();
    if (claims == null || !issuer.url().equals(claims.get("iss"))) {
      throw OidcClaims.invalid("was issued by another issuer (iss)");
    }
    OidcClaims.identity(issuer.url(), claims);
    return OidcClaims.validity(claims, clock.instant());
  }

  private Verified check(SignedJWT token, JWKSet keys, Instant expiresAt) {
    DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    processor.setJWSKeySelector(
        new JWSVerificationKeySelector<>(ALGORITHMS, new ImmutableJWKSet<>(keys)));
    processor.setJWTClaimsSetVerifier(
        new DefaultJWTClaimsVerifier<>(
            settings.audience(),
            new JWTClaimsSet.Builder().issuer(issuer.url()).build(),
            Set.of("sub", "exp")));
    JWTClaimsSet claims;
    try {
      claims = processor.process(token, null);
    } catch (Exception e) {
      throw OidcClaims.invalid("is not valid: " + e.getMessage());
    }
    List<String> groups = groups(claims.getClaim(settings.groupsClaim()));
    RoleMapping.Grant grant =
        RoleMapping.grant(settings.roleMap(), groups)
            .orElseThrow(
                () ->
                    ApiException.forbidden(
                        "this identity's "
                            + settings.groupsClaim()
                            + " map to no role in "
                            + OidcSettings.ROLE_MAP));
    OidcClaims.Identity identity = OidcClaims.identity(issuer.url(), claims.toJSONObject());
    Principal principal =
        new Principal(
            identity.id(), identity.name(), grant.role(), grant.teams(), identity.actor());
    return new Verified(principal, expiresAt);
  }

  /**
   * 503: the issuer's keys are not loaded yet (first fetch under way, or it failed and is not
   * retried yet).
   */
  private ApiException unavailable() {
    Duration retryIn = issuer.keys().retryIn();
    String why =
        issuer
            .keys()
            .failure()
            .map(e -> " (" + Objects.toString(e.getMessage(), e.getClass().getSimpleName()) + ")")
            .orElse(" (its keys are being fetched)");
    long after = Math.max(1, retryIn.toSeconds());
    return new ApiException(
            503,
            "oidc-unavailable",
            "Service Unavailable",
            "the OIDC issuer "
                + issuer.url()
                + " cannot be reached"
                + why
                + "; retry in "
                + after
                + " s or use an API token",
            null)
        .withHeader("Retry-After", Long.toString(after));
  }

  private static List<String> groups(Object claim) {
    if (claim instanceof String s) {
      return List.of(s);
    }
    if (claim instanceof List<?> list) {
      return list.stream().filter(String.class::isInstance).map(String.class::cast).toList();
    }
    return List.of();
  }
}
