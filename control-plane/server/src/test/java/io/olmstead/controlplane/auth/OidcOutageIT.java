package io.olmstead.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.olmstead.controlplane.config.OidcSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The control plane while its OIDC issuer hangs (accepts, then trickles header lines and never
 * finishes an answer, so no read timeout ends the fetch) or is down (answers 503): junk tokens are
 * refused without waiting on it, the issuer is asked once, not once per request, and API tokens
 * keep working.
 */
class OidcOutageIT {
  private static final int JUNK = 20;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static Vertx vertx;
  private static NetServer hung;
  private static final Set<NetSocket> HELD = ConcurrentHashMap.newKeySet();
  private static final AtomicInteger HUNG_CONNECTIONS = new AtomicInteger();
  private static HttpServer down;
  private static final AtomicInteger DOWN_REQUESTS = new AtomicInteger();
  private static RSAKey key;
  private static TestControlPlane hungCp;
  private static TestControlPlane downCp;

  @BeforeAll
  static void start() throws Exception {
    key = new RSAKeyGenerator(2048).keyID("k1").generate();
    vertx = Vertx.vertx();
    hung =
        vertx
            .createNetServer()
            .connectHandler(
                socket -> {
                  HUNG_CONNECTIONS.incrementAndGet();
                  HELD.add(socket);
                  socket.closeHandler(v -> HELD.remove(socket));
                  socket.write("HTTP/1.1 200 OK\r\n");
                })
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    // a header line every 500 ms: the client's read timeout never fires and the answer never ends
    vertx.setPeriodic(
        500, id -> HELD.forEach(s -> s.write(Buffer.buffer("X-Still-Thinking: 1\r\n"))));
    down =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> {
                  DOWN_REQUESTS.incrementAndGet();
                  request.response().setStatusCode(503).end("down for maintenance");
                })
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    var db = TestDatabase.create(OidcOutageIT.class);
    hungCp = TestControlPlane.start(db, settings(hungIssuer()));
    downCp = TestControlPlane.start(db, settings(downIssuer()));
  }

  private static Map<String, String> settings(String issuer) {
    return Map.of(
        OidcSettings.ISSUER,
        issuer,
        OidcSettings.AUDIENCE,
        "olmstead",
        OidcSettings.ROLE_MAP,
        "platform=admin",
        OidcSettings.RETRY_SECONDS,
        "300");
  }

  private static String hungIssuer() {
    return "http://127.0.0.1:" + hung.actualPort();
  }

  private static String downIssuer() {
    return "http://127.0.0.1:" + down.actualPort();
  }

  @AfterAll
  static void stop() {
    HELD.forEach(NetSocket::close);
    if (hungCp != null) {
      hungCp.close();
    }
    if (downCp != null) {
      downCp.close();
    }
    vertx.close();
  }

  @Test
  void junkTokensWhileTheIssuerHangsAreRefusedAtOnceWithOneFetchAndApiTokensStillWork()
      throws Exception {
    List<Integer> statuses = sendJunk(hungCp, hungIssuer());
    assertThat(statuses).hasSize(JUNK).allSatisfy(s -> assertThat(s).isIn(401, 503));
    ApiClient api = new ApiClient(hungCp);
    assertThat(api.get("/api/v1/whoami", TestControlPlane.ADMIN_TOKEN).status()).isEqualTo(200);
    assertThat(
            api.json(
                    "PUT",
                    "/api/v1/catalogs/while-hung",
                    TestControlPlane.ADMIN_TOKEN,
                    new JsonObject())
                .status())
        .isEqualTo(201);
    assertThat(HELD).as("the issuer is still hung: its one answer never ended").hasSize(1);
    assertThat(HUNG_CONNECTIONS).as("one discovery fetch").hasValue(1);
  }

  @Test
  void aDownIssuerIsAskedOnceForManyJunkTokensAndDashboardConfigs() throws Exception {
    List<Integer> statuses = sendJunk(downCp, downIssuer());
    assertThat(statuses).hasSize(JUNK).allSatisfy(s -> assertThat(s).isIn(401, 503));
    ApiClient api = new ApiClient(downCp);
    for (int i = 0; i < 30; i++) {
      JsonObject config = api.get("/ui/config.json", null).json();
      assertThat(config.getString("oidcError")).contains("cannot be reached");
    }
    ApiClient.Response refused = api.get("/api/v1/whoami", junk(downIssuer(), 0));
    assertThat(refused.header("content-type")).isEqualTo("application/problem+json");
    assertThat(refused.body()).contains(downIssuer());
    assertThat(DOWN_REQUESTS).as("one discovery fetch per retry interval").hasValue(1);
    assertThat(api.get("/api/v1/whoami", TestControlPlane.ADMIN_TOKEN).status()).isEqualTo(200);
  }

  /**
   * JUNK signed-looking tokens (our issuer, a key it never published) and malformed ones, all at
   * once.
   */
  private static List<Integer> sendJunk(TestControlPlane cp, String issuer) throws Exception {
    List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
    for (String token :
        IntStream.range(0, JUNK)
            .mapToObj(i -> i % 4 == 3 ? "eyJub3QiOiJqc29u.Zm9v.YmFy" : junk(issuer, i))
            .toList()) {
      sent.add(
          HTTP.sendAsync(
              HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/whoami"))
                  .header("Authorization", "Bearer " + token)
                  .build(),
              HttpResponse.BodyHandlers.ofString()));
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(sent.toArray(new CompletableFuture[0]));
    await().atMost(Duration.ofSeconds(30)).until(all::isDone);
    return sent.stream().map(f -> f.join().statusCode()).toList();
  }

  private static String junk(String issuer, int i) {
    try {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("junk-" + i).build(),
              new JWTClaimsSet.Builder()
                  .issuer(issuer)
                  .audience("olmstead")
                  .subject("junk-" + i)
                  .expirationTime(new Date(System.currentTimeMillis() + 600_000))
                  .build());
      jwt.sign(new RSASSASigner(key));
      return jwt.serialize();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
