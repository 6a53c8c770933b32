package io.olmstead.controlplane.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.olmstead.controlplane.config.OidcSettings;
import io.olmstead.controlplane.testsupport.Browsers;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * "Sign in with SSO" end to end in headless Chromium: an issuer the test serves on loopback
 * (discovery, an authorization endpoint that redirects back with a code, a token endpoint that
 * checks the PKCE verifier against the S256 challenge and answers an ID token signed by the test's
 * key), the dashboard's flow in the browser, and the control plane accepting the token it got.
 */
class DashboardSsoIT {
  // a page boot with the sign-in redirect takes Chromium a few seconds on a loaded 2-core machine
  // (10 s once was not enough)
  private static final Duration PAGE_WAIT = Duration.ofSeconds(30);
  private static final String CLIENT = "olmstead-dashboard";
  private static Vertx vertx;
  private static HttpServer issuerServer;
  private static String issuer;
  private static RSAKey key;
  private static TestControlPlane cp;
  private static ChromeDriver browser;

  /** code -> the S256 challenge it was issued for */
  private static final Map<String, String> CODES = new ConcurrentHashMap<>();

  private static final List<MultiMap> AUTHORIZE_REQUESTS = new CopyOnWriteArrayList<>();
  private static final List<String> ISSUED = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    browser = Browsers.headless();
    key = new RSAKeyGenerator(2048).keyID("k1").generate();
    vertx = Vertx.vertx();
    issuerServer =
        vertx
            .createHttpServer()
            .requestHandler(DashboardSsoIT::issuer)
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    issuer = "http://127.0.0.1:" + issuerServer.actualPort();
    cp =
        TestControlPlane.start(
            TestDatabase.create(DashboardSsoIT.class),
            Map.of(
                OidcSettings.ISSUER,
                issuer,
                OidcSettings.AUDIENCE,
                CLIENT,
                OidcSettings.ROLE_MAP,
                "platform=admin"));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (cp != null) {
      cp.close();
    }
    if (vertx != null) {
      vertx.close();
    }
  }

  private static void issuer(HttpServerRequest request) {
    switch (request.path()) {
      case "/.well-known/openid-configuration" ->
          request
              .response()
              .putHeader("Content-Type", "application/json")
              .end(
                  new JsonObject()
                      .put("issuer", issuer)
                      .put("jwks_uri", issuer + "/jwks")
                      .put("authorization_endpoint", issuer + "/authorize")
                      .put("token_endpoint", issuer + "/token")
                      .encode());
      case "/jwks" ->
          request
              .response()
              .putHeader("Content-Type", "application/json")
              .end(new JWKSet(key.toPublicJWK()).toString());
      case "/authorize" -> {
        AUTHORIZE_REQUESTS.add(MultiMap.caseInsensitiveMultiMap().addAll(request.params()));
        String code = UUID.randomUUID().toString();
        CODES.put(code, request.getParam("code_challenge"));
        request
            .response()
            .setStatusCode(302)
            .putHeader(
                "Location",
                request.getParam("redirect_uri")
                    + "?code="
                    + code
                    + "&state="
                    + request.getParam("state"))
            .end();
      }
      case "/token" -> request.setExpectMultipart(true).endHandler(v -> token(request));
      default -> request.response().setStatusCode(404).end();
    }
  }

  /**
   * The code exchange: the verifier must hash to the code's challenge (PKCE S256); answers a signed
   * ID token.
   */
  private static void token(HttpServerRequest request) {
    MultiMap form = request.formAttributes();
    String challenge = CODES.remove(String.valueOf(form.get("code")));
    request
        .response()
        .putHeader("Access-Control-Allow-Origin", "*")
        .putHeader("Content-Type", "application/json");
    try {
      String verifier = form.get("code_verifier");
      String hashed =
          verifier == null
              ? null
              : Base64.getUrlEncoder()
                  .withoutPadding()
                  .encodeToString(
                      MessageDigest.getInstance("SHA-256")
                          .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
      if (challenge == null
          || !challenge.equals(hashed)
          || !CLIENT.equals(form.get("client_id"))
          || !"authorization_code".equals(form.get("grant_type"))) {
        request
            .response()
            .setStatusCode(400)
            .end(new JsonObject().put("error", "invalid_grant").encode());
        return;
      }
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.RS256)
                  .keyID("k1")
                  .type(JOSEObjectType.JWT)
                  .build(),
              new JWTClaimsSet.Builder()
                  .issuer(issuer)
                  .audience(CLIENT)
                  .subject("sre-1")
                  .claim("preferred_username", "sre-1")
                  .claim("groups", List.of("platform"))
                  .issueTime(new Date())
                  .expirationTime(new Date(System.currentTimeMillis() + 600_000))
                  .build());
      jwt.sign(new RSASSASigner(key));
      ISSUED.add(jwt.serialize());
      request
          .response()
          .end(
              new JsonObject()
                  .put("id_token", jwt.serialize())
                  .put("access_token", "opaque")
                  .put("token_type", "Bearer")
                  .encode());
    } catch (Exception e) {
      request
          .response()
          .setStatusCode(500)
          .end(new JsonObject().put("error", e.toString()).encode());
    }
  }

  private static Object js(String script) {
    return ((JavascriptExecutor) browser).executeScript(script);
  }

  @Test
  void signingInWithSsoRunsPkceAndTheDashboardUsesTheIssuersToken() {
    browser.get(cp.baseUrl() + "/ui/");
    js("sessionStorage.clear()");
    browser.get(cp.baseUrl() + "/ui/#/rollouts");
    await().atMost(PAGE_WAIT).until(() -> !browser.findElements(By.id("sso-login")).isEmpty());
    browser.findElement(By.id("sso-login")).click();

    await().atMost(Duration.ofSeconds(15)).until(() -> whoami() != null);
    assertThat(whoami()).isEqualTo("oidc:sre-1");
    assertThat(AUTHORIZE_REQUESTS)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.get("code_challenge_method")).isEqualTo("S256");
              assertThat(p.get("response_type")).isEqualTo("code");
              assertThat(p.get("client_id")).isEqualTo(CLIENT);
              assertThat(p.get("scope")).isEqualTo("openid profile email");
              assertThat(p.get("redirect_uri")).isEqualTo(cp.baseUrl() + "/ui/");
            });
    assertThat(ISSUED).hasSize(1);
    assertThat(js("return sessionStorage.getItem('olmstead.token')")).isEqualTo(ISSUED.get(0));
    assertThat(browser.getCurrentUrl())
        .as("back where the sign-in began, without the code")
        .isEqualTo(cp.baseUrl() + "/ui/#/rollouts");
    await()
        .atMost(PAGE_WAIT)
        .until(() -> browser.findElements(By.cssSelector("#login[hidden]")).size() == 1);
  }

  @Test
  void anAnswerWithAnotherStateIsRefusedAndNoTokenIsKept() {
    browser.get(cp.baseUrl() + "/ui/");
    js("sessionStorage.clear()");
    browser.get(cp.baseUrl() + "/ui/?code=stolen&state=forged");
    await()
        .atMost(PAGE_WAIT)
        .until(
            () ->
                String.valueOf(
                        js(
                            "const e = document.getElementById('login-error'); return e ? e.textContent : ''"))
                    .contains("state"));
    assertThat(js("return sessionStorage.getItem('olmstead.token')")).isNull();
  }

  @Test
  void theConfigNamesTheIssuersEndpointsAndNoSecretAndTheCspLetsThePageReachIt() throws Exception {
    HttpResponse<String> config =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/ui/config.json")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(config.statusCode()).isEqualTo(200);
    JsonObject oidc = new JsonObject(config.body()).getJsonObject("oidc");
    assertThat(oidc.getMap())
        .containsOnlyKeys(
            "issuer", "clientId", "authorizationEndpoint", "tokenEndpoint", "scopes", "token");
    assertThat(oidc.getString("tokenEndpoint")).isEqualTo(issuer + "/token");
    assertThat(oidc.getString("token")).isEqualTo("id_token");
    HttpResponse<String> page =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/ui/")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
        .contains("connect-src 'self' " + issuer + ";");
  }

  /**
   * The caller's name as the control plane sees the dashboard's token, or null before there is one.
   */
  private static String whoami() {
    Object token = js("return sessionStorage.getItem('olmstead.token')");
    if (token == null) {
      return null;
    }
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/whoami"))
                      .header("Authorization", "Bearer " + token)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? new JsonObject(r.body()).getString("name") : null;
    } catch (Exception e) {
      return null;
    }
  }
}
