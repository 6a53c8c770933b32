package io.olmstead.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.olmstead.controlplane.config.OidcSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OIDC bearer tokens against a real control plane, with an issuer the test runs on loopback
 * (discovery document and JWKS) and tokens it signs: mapped groups give roles and teams, and every
 * forged or misdirected token is 401.
 */
class OidcIT {
  private static final String AUDIENCE = "olmstead";
  private static Vertx vertx;
  private static HttpServer issuerServer;
  private static String issuer;
  private static RSAKey key;
  private static RSAKey otherKey;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static final AtomicReference<String> JWKS = new AtomicReference<>();
  private static final AtomicInteger JWKS_REQUESTS = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    key = new RSAKeyGenerator(2048).keyID("k1").generate();
    otherKey = new RSAKeyGenerator(2048).keyID("k1").generate();
    vertx = Vertx.vertx();
    JWKS.set(new JWKSet(key.toPublicJWK()).toString());
    issuerServer =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> {
                  if (request.path().equals("/.well-known/openid-configuration")) {
                    request
                        .response()
                        .putHeader("Content-Type", "application/json")
                        .end(
                            new JsonObject()
                                .put("issuer", issuer)
                                .put("jwks_uri", issuer + "/jwks")
                                .encode());
                  } else if (request.path().equals("/jwks")) {
                    JWKS_REQUESTS.incrementAndGet();
                    request
                        .response()
                        .putHeader("Content-Type", "application/json")
                        .end(JWKS.get());
                  } else {
                    request.response().setStatusCode(404).end();
                  }
                })
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    issuer = "http://127.0.0.1:" + issuerServer.actualPort();
    cp =
        TestControlPlane.start(
            TestDatabase.create(OidcIT.class),
            Map.of(
                OidcSettings.ISSUER,
                issuer,
                OidcSettings.AUDIENCE,
                AUDIENCE,
                OidcSettings.ROLE_MAP,
                "platform=admin;payments-ops=operator:payments",
                OidcSettings.RETRY_SECONDS,
                "1"));
    api = new ApiClient(cp);
    // the issuer's keys are fetched at start; until they are in, a token is refused at once (503)
    String first = sign(claims("first", List.of("platform")).build(), key);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> api.get("/api/v1/whoami", first).status() != 503);
  }

  @AfterAll
  static void stop() {
    cp.close();
    vertx.close();
  }

  private static JWTClaimsSet.Builder claims(String subject, List<String> groups) {
    return new JWTClaimsSet.Builder()
        .issuer(issuer)
        .audience(AUDIENCE)
        .subject(subject)
        .claim("preferred_username", subject)
        .claim("groups", groups)
        .issueTime(new Date())
        .expirationTime(new Date(System.currentTimeMillis() + 600_000));
  }

  private static String sign(JWTClaimsSet claims, RSAKey with) throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256)
                .keyID(with.getKeyID())
                .type(JOSEObjectType.JWT)
                .build(),
            claims);
    jwt.sign(new RSASSASigner(with));
    return jwt.serialize();
  }

  @Test
  void aMappedGroupGivesItsRoleAndTeamsAndChangesAreAuditedUnderTheIdentity() throws Exception {
    String alice = sign(claims("alice", List.of("platform", "unrelated")).build(), key);
    JsonObject whoami = api.get("/api/v1/whoami", alice).json();
    assertThat(whoami.getString("name")).isEqualTo("oidc:alice");
    assertThat(whoami.getString("role")).isEqualTo("admin");
    assertThat(whoami.getJsonArray("teams")).isEmpty();
    assertThat(api.json("PUT", "/api/v1/catalogs/sso-made", alice, new JsonObject()).status())
        .isEqualTo(201);
    assertThat(
            api.get("/api/v1/audit?limit=500", TestControlPlane.ADMIN_TOKEN).items().stream()
                .map(JsonObject.class::cast)
                .filter(e -> e.getString("resource").equals("catalogs/sso-made")))
        .singleElement()
        .satisfies(
            e -> assertThat(e.getString("actor")).startsWith("token:oidc:").endsWith(" (alice)"));

    String bob = sign(claims("bob", List.of("payments-ops")).build(), key);
    JsonObject bobWho = api.get("/api/v1/whoami", bob).json();
    assertThat(bobWho.getString("role")).isEqualTo("operator");
    assertThat(bobWho.getJsonArray("teams")).containsExactly("payments");
    assertThat(
            api.json(
                    "POST",
                    "/api/v1/tokens",
                    bob,
                    new JsonObject().put("name", "x").put("role", "viewer"))
                .status())
        .as("an operator may not mint tokens")
        .isEqualTo(403);
    // API tokens keep working beside SSO
    assertThat(api.get("/api/v1/whoami", TestControlPlane.ADMIN_TOKEN).status()).isEqualTo(200);
  }

  @Test
  void forgedExpiredMisdirectedAndUnsignedTokensAre401AndAnUnmappedIdentityIs403()
      throws Exception {
    Map<String, String> bad =
        Map.of(
            "another key", sign(claims("mallory", List.of("platform")).build(), otherKey),
            "another issuer",
                sign(
                    claims("mallory", List.of("platform")).issuer("http://evil.example").build(),
                    key),
            "another audience",
                sign(claims("mallory", List.of("platform")).audience("other-app").build(), key),
            "expired",
                sign(
                    claims("mallory", List.of("platform"))
                        .expirationTime(new Date(System.currentTimeMillis() - 3_600_000))
                        .build(),
                    key),
            "alg none", new PlainJWT(claims("mallory", List.of("platform")).build()).serialize(),
            "HS256 keyed by the public key",
                hs256WithThePublicKey(claims("mallory", List.of("platform")).build()));
    bad.forEach(
        (why, token) -> {
          Response response = api.get("/api/v1/whoami", token);
          assertThat(response.status()).as(why + ": " + response.body()).isEqualTo(401);
          assertThat(response.header("content-type")).isEqualTo("application/problem+json");
        });
    Response unmapped =
        api.get("/api/v1/whoami", sign(claims("eve", List.of("nobody-group")).build(), key));
    assertThat(unmapped.status()).as(unmapped.body()).isEqualTo(403);
  }

  @Test
  void twoSubjectsWithTheSameUsernameAreAuditedAsTwoIdentitiesEachShowingTheName()
      throws Exception {
    String bob1 =
        sign(
            claims("subject-1", List.of("platform")).claim("preferred_username", "bob").build(),
            key);
    String bob2 =
        sign(
            claims("subject-2", List.of("platform")).claim("preferred_username", "bob").build(),
            key);
    assertThat(api.json("PUT", "/api/v1/catalogs/by-bob-1", bob1, new JsonObject()).status())
        .isEqualTo(201);
    assertThat(api.json("PUT", "/api/v1/catalogs/by-bob-2", bob2, new JsonObject()).status())
        .isEqualTo(201);
    String actor1 = auditActor("catalogs/by-bob-1");
    String actor2 = auditActor("catalogs/by-bob-2");
    assertThat(actor1).isNotEqualTo(actor2).startsWith("token:oidc:").endsWith(" (bob)");
    assertThat(actor2).startsWith("token:oidc:").endsWith(" (bob)");
    assertThat(api.get("/api/v1/whoami", bob1).json().getString("actor")).isEqualTo(actor1);
  }

  @Test
  void anEmptyOrMissingSubjectIs401NamingTheClaim() throws Exception {
    for (JWTClaimsSet claims :
        List.of(
            claims("", List.of("platform")).build(),
            new JWTClaimsSet.Builder(claims("x", List.of("platform")).build())
                .subject(null)
                .build())) {
      Response response = api.get("/api/v1/whoami", sign(claims, key));
      assertThat(response.status()).as(response.body()).isEqualTo(401);
      assertThat(response.json().getString("detail")).contains("sub");
    }
  }

  @Test
  void anExpiryOrIssueTimeBeyondAnyDateIs401AndAFarButRealOneIsAccepted() throws Exception {
    for (Object exp : List.of(Long.MAX_VALUE, 1_000_000_000_000L, 1e300)) {
      Response response =
          api.get(
              "/api/v1/whoami",
              sign(claims("far", List.of("platform")).claim("exp", exp).build(), key));
      assertThat(response.status()).as(exp + ": " + response.body()).isEqualTo(401);
      assertThat(response.json().getString("detail")).contains("exp");
    }
    Response hugeIat =
        api.get(
            "/api/v1/whoami",
            sign(claims("far", List.of("platform")).claim("iat", Long.MAX_VALUE).build(), key));
    assertThat(hugeIat.status()).as(hugeIat.body()).isEqualTo(401);
    // the year 2500: valid, and cached for at most the usual seconds (its lifetime in nanoseconds
    // overflows a long)
    Response year2500 =
        api.get(
            "/api/v1/whoami",
            sign(claims("far", List.of("platform")).claim("exp", 16_725_225_600L).build(), key));
    assertThat(year2500.status()).as(year2500.body()).isEqualTo(200);
  }

  @Test
  void aKeyTheIssuerAddedIsFetchedWithOneRefreshAndAKeyItNeverPublishedIs401() throws Exception {
    RSAKey rotated = new RSAKeyGenerator(2048).keyID("k2").generate();
    JWKS.set(new JWKSet(List.of(key.toPublicJWK(), rotated.toPublicJWK())).toString());
    String token = sign(claims("rotated", List.of("platform")).build(), rotated);
    int before = JWKS_REQUESTS.get();
    // within a retry interval of the last fetch the unknown key is 401 at once; then one refresh
    // brings it in
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> api.get("/api/v1/whoami", token).status() == 200);
    assertThat(JWKS_REQUESTS.get() - before).isEqualTo(1);
    String unknown =
        sign(
            claims("unknown", List.of("platform")).build(),
            new RSAKeyGenerator(2048).keyID("k9").generate());
    // asked again until one request is past the retry interval and refreshes the keys: refused or
    // refreshed, the
    // answer is the same
    int fetches = JWKS_REQUESTS.get();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              Response refused = api.get("/api/v1/whoami", unknown);
              assertThat(refused.status()).isEqualTo(401);
              assertThat(refused.json().getString("detail"))
                  .contains("key the issuer does not publish");
              return JWKS_REQUESTS.get() > fetches;
            });
  }

  private static String auditActor(String resource) {
    return api.get("/api/v1/audit?limit=500", TestControlPlane.ADMIN_TOKEN).items().stream()
        .map(JsonObject.class::cast)
        .filter(e -> e.getString("resource").equals(resource))
        .map(e -> e.getString("actor"))
        .findFirst()
        .orElseThrow();
  }

  private static String hs256WithThePublicKey(JWTClaimsSet claims) throws Exception {
    SignedJWT jwt =
        new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims);
    jwt.sign(new MACSigner(key.toRSAPublicKey().getEncoded()));
    return jwt.serialize();
  }
}
