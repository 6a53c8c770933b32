package io.olmstead.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Red-team pass (stop 20) over the newer reads and writes: hostile query values on every new read
 * answer a 4xx problem naming the parameter (never a 500), team-scoped callers get nothing of
 * another team through any parameter, bulk approval cannot reach another team's subscription, pool
 * and agent credentials do not stand in for each other or for an API token.
 */
class RedTeamReadsIT {
  private static final String ADMIN = TeamWorld.ADMIN;
  private static TestControlPlane cp;
  private static TeamWorld world;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(RedTeamReadsIT.class);
    world = TeamWorld.build(cp);
    api = world.api;
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  void hostileQueryValuesOnTheNewReadsAre4xxProblemsNamingTheParameterNeverA500() {
    List<String> reads =
        List.of(
            "/fleet/summary",
            "/fleet/clusters-by-label?label=env",
            "/approvals",
            "/clusters/alpha-1/subscriptions",
            "/inventory",
            "/catalogs/community/maturity",
            "/subscriptions/alpha-sub/adoption",
            "/pool-tokens",
            "/rollouts/" + world.alphaRollout + "/clusters",
            "/maintenance-windows",
            "/freezes",
            "/webhooks",
            "/clusters",
            "/subscriptions",
            "/rollouts",
            "/audit");
    Map<String, String> hostile = new java.util.LinkedHashMap<>();
    hostile.put("limit=0", "limit");
    hostile.put("limit=-1", "limit");
    hostile.put("limit=99999999999999999999", "limit");
    hostile.put("limit=1e3", "limit");
    hostile.put("limit=%00", "limit");
    hostile.put("cursor=" + q("AAAA"), "cursor");
    hostile.put("cursor=" + q("x".repeat(4000)), "cursor");
    hostile.put("selector=" + q("env in (a"), "selector");
    hostile.put("selector=" + q("a!=b,".repeat(600) + "a!=b"), "selector");
    hostile.put("since=" + q("P99999999999D"), "since");
    hostile.put("since=" + q("PT-5M"), "since");
    hostile.put("step=" + q("PT0S"), "step");
    hostile.put("step=" + q("PT1S"), "step");
    hostile.put("since=" + q("P1D") + "&step=" + q("PT1M"), "step");
    hostile.put("failures=51", "failures");
    hostile.put("team=" + q("beta"), "team");
    hostile.put("label=" + q("x".repeat(400)), "label");
    List<String> fivehundreds = new ArrayList<>();
    int probes = 0;
    for (String read : reads) {
      for (String query : hostile.keySet()) {
        String path = "/api/v1" + read + (read.contains("?") ? "&" : "?") + query;
        for (String token : List.of(ADMIN, world.alpha.get(Role.VIEWER))) {
          Response r = api.get(path, token);
          probes++;
          if (r.status() >= 500) {
            fivehundreds.add(r.status() + " " + path + " " + r.body());
          }
          if (r.status() >= 400) {
            assertThat(r.header("content-type"))
                .as(r.status() + " " + path)
                .startsWith("application/problem+json");
          }
          if (token != ADMIN && r.status() < 300) {
            for (String foreign :
                List.of("beta-1", "beta-2", "beta-sub", "nobody-1", world.betaRollout)) {
              assertThat(r.body()).as(path).doesNotContain("\"" + foreign + "\"");
            }
          }
        }
      }
    }
    assertThat(fivehundreds).as("500s among " + probes + " probes").isEmpty();
  }

  @Test
  void bulkApprovalOfAnotherTeamsSubscriptionOrOutsideThePlacementApprovesNothing() {
    String alphaOperator = world.alpha.get(Role.OPERATOR);
    Response foreign =
        api.json(
            "POST",
            "/api/v1/approvals",
            alphaOperator,
            new JsonObject().put("subscription", "beta-sub").put("bundle", "etcdoperator.v0.9.4"));
    assertThat(foreign.status()).isBetween(400, 499);
    assertThat(foreign.body()).doesNotContain("beta-1");
    Response unscoped =
        api.json(
            "POST",
            "/api/v1/approvals",
            alphaOperator,
            new JsonObject()
                .put("subscription", "nobody-sub")
                .put("bundle", "etcdoperator.v0.9.4"));
    assertThat(unscoped.status()).isBetween(400, 499);
    Response outside =
        api.json(
            "POST",
            "/api/v1/approvals",
            alphaOperator,
            new JsonObject()
                .put("subscription", "alpha-sub")
                .put("bundle", "etcdoperator.v0.9.4")
                .put("selector", "olmstead.io/team=beta"));
    assertThat(outside.status()).isLessThan(500);
    assertThat(outside.body()).doesNotContain("beta-1").doesNotContain("beta-2");
  }

  @Test
  void poolAgentAndApiCredentialsDoNotStandInForEachOther() {
    String pool =
        api.json("POST", "/api/v1/pool-tokens", ADMIN, new JsonObject().put("name", "rt-pool"))
            .json()
            .getString("token");
    assertThat(pool).isNotBlank();
    // a pool token is not an API token
    assertThat(api.get("/api/v1/whoami", pool).status()).isEqualTo(401);
    // nor an agent credential (the agent's socket is refused before any upgrade)
    Map<String, String> upgrade =
        Map.of(
            "Upgrade",
            "websocket",
            "Connection",
            "Upgrade",
            "Sec-WebSocket-Version",
            "13",
            "Sec-WebSocket-Key",
            "dGhlIHNhbXBsZSBub25jZQ==");
    assertThat(upgrade("/api/v1/agent/connect", pool, upgrade)).isEqualTo(401);
    // an API admin token is neither a pool token nor an agent credential
    assertThat(upgrade("/api/v1/agent/pool", ADMIN, upgrade)).isEqualTo(401);
    assertThat(upgrade("/api/v1/agent/connect", ADMIN, upgrade)).isEqualTo(401);
    // an enrollment token is no pool token
    assertThat(upgrade("/api/v1/agent/pool", world.betaEnrollmentSecret, upgrade)).isEqualTo(401);
  }

  private static int upgrade(String path, String token, Map<String, String> headers) {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", cp.port())) {
      socket.setSoTimeout(10_000);
      StringBuilder req =
          new StringBuilder(
              "GET "
                  + path
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                  + token
                  + "\r\n");
      headers.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
      socket
          .getOutputStream()
          .write(req.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
      String status =
          new java.io.BufferedReader(
                  new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
              .readLine();
      return Integer.parseInt(status.split(" ")[1]);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
