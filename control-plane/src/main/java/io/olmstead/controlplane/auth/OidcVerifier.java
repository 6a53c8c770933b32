package io.olmstead.controlplane.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.olmstead.controlplane.http.ApiException;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Verifies an OIDC JWT (blocking: call on a worker): signature by a key of the issuer's JWKS (fetched and cached by
 * nimbus-jose-jwt, bounded in time and size), asymmetric algorithms only (so neither {@code none} nor HS256 keyed by
 * the public key passes), {@code iss} exactly, {@code aud} containing the audience, {@code exp} in the future (60 s
 * skew). The groups claim is mapped to a role and teams; an identity no entry maps is refused (403).
 */
final class OidcVerifier {
  private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
      JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256,
      JWSAlgorithm.ES384, JWSAlgorithm.ES512, JWSAlgorithm.EdDSA);
  private static final int TIMEOUT_MILLIS = 3_000;
  private static final int MAX_DOCUMENT_BYTES = 512 * 1024;

  private final OidcSettings settings;
  private DefaultJWTProcessor<SecurityContext> processor;

  /** A verified identity: its principal and when its token expires. */
  record Verified(Principal principal, Instant expiresAt) {
  }

  OidcVerifier(OidcSettings settings) {
    this.settings = settings;
  }

  Verified verify(String jwt) {
    JWTClaimsSet claims;
    try {
      claims = processor().process(jwt, null);
    } catch (ApiException e) {
      throw e;
    } catch (Exception e) {
      throw ApiException.unauthorized("the OIDC token is not valid: " + e.getMessage());
    }
    List<String> groups = groups(claims.getClaim(settings.groupsClaim()));
    RoleMapping.Grant grant = RoleMapping.grant(settings.roleMap(), groups).orElseThrow(() ->
        ApiException.forbidden("this identity's " + settings.groupsClaim() + " map to no role in "
            + OidcSettings.ROLE_MAP));
    String subject = claims.getSubject();
    String shown = firstNonBlank(claims.getClaim("preferred_username"), claims.getClaim("email"), subject);
    UUID id = UUID.nameUUIDFromBytes(("oidc|" + claims.getIssuer() + "|" + subject).getBytes(StandardCharsets.UTF_8));
    Principal principal = new Principal(id, "oidc:" + sanitize(shown), grant.role(), grant.teams());
    return new Verified(principal, claims.getExpirationTime().toInstant());
  }

  private synchronized DefaultJWTProcessor<SecurityContext> processor() throws Exception {
    if (processor == null) {
      DefaultResourceRetriever retriever = new DefaultResourceRetriever(TIMEOUT_MILLIS, TIMEOUT_MILLIS,
          MAX_DOCUMENT_BYTES);
      URL jwks = URI.create(settings.jwksUrl().orElseGet(() -> discover(retriever))).toURL();
      JWKSource<SecurityContext> keys = JWKSourceBuilder.create(jwks, retriever).build();
      DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
      p.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
      p.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(settings.audience(),
          new JWTClaimsSet.Builder().issuer(settings.issuer().orElseThrow()).build(), Set.of("sub", "exp")));
      processor = p;
    }
    return processor;
  }

  /** The jwks_uri of the issuer's discovery document, whose issuer must be the configured one. */
  private String discover(DefaultResourceRetriever retriever) {
    String issuer = settings.issuer().orElseThrow();
    String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
    try {
      JsonObject doc = new JsonObject(retriever.retrieveResource(URI.create(base
          + "/.well-known/openid-configuration").toURL()).getContent());
      if (!issuer.equals(doc.getString("issuer"))) {
        throw ApiException.unauthorized("the OIDC discovery document names another issuer");
      }
      String jwks = doc.getString("jwks_uri");
      if (jwks == null) {
        throw ApiException.unauthorized("the OIDC discovery document has no jwks_uri");
      }
      return jwks;
    } catch (ApiException e) {
      throw e;
    } catch (Exception e) {
      throw ApiException.unauthorized("the OIDC issuer's discovery document cannot be read: " + e.getMessage());
    }
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

  private static String firstNonBlank(Object... values) {
    for (Object v : values) {
      if (v instanceof String s && !s.isBlank()) {
        return s;
      }
    }
    return "unknown";
  }

  private static String sanitize(String name) {
    String cleaned = name.replaceAll("[^A-Za-z0-9@._+-]", "_");
    return cleaned.length() > 100 ? cleaned.substring(0, 100) : cleaned;
  }
}
