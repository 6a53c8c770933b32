package io.olmstead.controlplane.auth;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two teams, alpha and beta, and objects of no team ("nobody"), each with clusters, a subscription
 * with status and approvals, a rollout, API tokens and enrollment tokens. Every name of beta or of
 * no team contains {@code beta} or {@code nobody}; {@link #foreign} adds the generated ids, so
 * "alpha saw nothing of theirs" is a string search.
 */
final class TeamWorld {
  static final String ADMIN = TestControlPlane.ADMIN_TOKEN;

  final TestControlPlane cp;
  final ApiClient api;

  /** alpha's tokens by role (scoped to team alpha only). */
  final Map<Role, String> alpha = new EnumMap<>(Role.class);

  final Map<Role, String> beta = new EnumMap<>(Role.class);

  /** Names and ids alpha must never see. */
  final Set<String> foreign = new LinkedHashSet<>(List.of("beta", "nobody"));

  final List<String> alphaTokenNames = new ArrayList<>();
  String alphaRollout;
  String betaRollout;
  String nobodyRollout;
  String alphaEnrollment;
  String betaEnrollment;
  String betaEnrollmentSecret;

  private TeamWorld(TestControlPlane cp) {
    this.cp = cp;
    this.api = new ApiClient(cp);
  }

  static TeamWorld build(TestControlPlane cp) {
    TeamWorld w = new TeamWorld(cp);
    new RolloutFixtures(cp.database()).catalog();
    w.sharedCatalog();
    w.tokens();
    w.clusters();
    w.subscriptions();
    w.rollouts();
    return w;
  }

  /**
   * A catalog uploaded through the API (the reads derived from its content, such as maturity, parse
   * it).
   */
  private void sharedCatalog() {
    expect(api.json("PUT", "/api/v1/catalogs/community", ADMIN, new JsonObject()), 201);
    expect(
        api.send(
            "POST",
            "/api/v1/catalogs/community/revisions",
            ADMIN,
            "application/x-ndjson",
            CatalogFixtures.etcdNdjson().getBytes(StandardCharsets.UTF_8),
            Map.of()),
        201);
  }

  /**
   * Beta's tokens sort between alpha's by name, so a page filtered after the query would come back
   * short.
   */
  private void tokens() {
    for (Role role : Role.values()) {
      String name = "alpha-" + role.wireName();
      alpha.put(role, api.createToken(ADMIN, name, role.wireName(), List.of("alpha")));
      alphaTokenNames.add(name);
      String betaName = "alpha-" + role.wireName().charAt(0) + "x-beta-" + role.wireName();
      Response created =
          api.json(
              "POST",
              "/api/v1/tokens",
              ADMIN,
              new JsonObject()
                  .put("name", betaName)
                  .put("role", role.wireName())
                  .put("teams", List.of("beta")));
      beta.put(role, created.json().getString("token"));
      foreign.add(created.json().getString("id"));
    }
    Response both =
        api.json(
            "POST",
            "/api/v1/tokens",
            ADMIN,
            new JsonObject()
                .put("name", "alpha-y-beta-both")
                .put("role", "viewer")
                .put("teams", List.of("alpha", "beta")));
    foreign.add(both.json().getString("id"));
    Response unscoped =
        api.json(
            "POST",
            "/api/v1/tokens",
            ADMIN,
            new JsonObject()
                .put("name", "alpha-z-nobody")
                .put("role", "viewer")
                .put("teams", List.of()));
    foreign.add(unscoped.json().getString("id"));
  }

  /**
   * alpha-1, alpha-2, beta-1, beta-2 and nobody-1, enrolled with their teams' tokens (alternately
   * created).
   */
  private void clusters() {
    JsonObject alphaToken = enrollmentToken(alpha.get(Role.ADMIN), "alpha");
    JsonObject betaToken = enrollmentToken(beta.get(Role.ADMIN), "beta");
    enrollmentToken(alpha.get(Role.ADMIN), "alpha");
    JsonObject betaOther = enrollmentToken(beta.get(Role.ADMIN), "beta");
    JsonObject nobodyToken = enrollmentToken(ADMIN, null);
    alphaEnrollment = alphaToken.getString("id");
    betaEnrollment = betaToken.getString("id");
    betaEnrollmentSecret = betaToken.getString("token");
    foreign.addAll(List.of(betaEnrollment, betaOther.getString("id"), nobodyToken.getString("id")));
    enroll(alphaToken.getString("token"), "alpha-1");
    enroll(alphaToken.getString("token"), "alpha-2");
    enroll(betaEnrollmentSecret, "beta-1");
    enroll(betaEnrollmentSecret, "beta-2");
    enroll(nobodyToken.getString("token"), "nobody-1");
  }

  private void subscriptions() {
    putSubscription("alpha-sub", "alpha");
    putSubscription("beta-sub", "beta");
    putSubscription("nobody-sub", null);
    // reports as an agent of another team might send them (the gateway refuses those; the read side
    // must not show
    // them either): alpha-sub on beta-1
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "phase, seq) VALUES ('alpha-sub', 'alpha-1', '0.9.2', 'Succeeded', 1), "
            + "('alpha-sub', 'beta-1', '0.9.2', 'Failed', 1), ('beta-sub', 'beta-1', '0.9.2', 'Succeeded', 1), "
            + "('nobody-sub', 'alpha-1', '0.9.2', 'Succeeded', 1)");
    approve("alpha-1", "alpha-sub", alpha.get(Role.OPERATOR));
    approve("beta-1", "beta-sub", beta.get(Role.OPERATOR));
    approve("alpha-1", "nobody-sub", ADMIN);
  }

  private void rollouts() {
    alphaRollout = rollout("alpha-sub");
    betaRollout = rollout("beta-sub");
    nobodyRollout = rollout("nobody-sub");
    foreign.addAll(List.of(betaRollout, nobodyRollout));
  }

  JsonObject enrollmentToken(String token, String team) {
    JsonObject body = new JsonObject().put("ttlSeconds", 3600).put("maxUses", 20);
    if (team != null) {
      body.put("labels", new JsonObject().put(Principal.TEAM_LABEL, team));
    }
    return expect(api.json("POST", "/api/v1/enrollment-tokens", token, body), 201).json();
  }

  Response enroll(String enrollmentToken, String cluster) {
    return api.send(
        "POST",
        "/api/v1/agent/enroll",
        enrollmentToken,
        "application/json",
        new JsonObject()
            .put("clusterName", cluster)
            .put("labels", new JsonObject().put("env", "prod"))
            .put("facts", new JsonObject().put("kubernetesVersion", "v1.30.0"))
            .encode()
            .getBytes(StandardCharsets.UTF_8),
        Map.of());
  }

  private void putSubscription(String name, String team) {
    // one namespace each: subscriptions of one package in one namespace whose placements can
    // overlap are refused
    JsonObject body =
        new JsonObject()
            .put("catalog", "demo")
            .put("package", "etcd")
            .put("channel", "alpha")
            .put("namespace", "etcd-" + name)
            .put("placement", new JsonObject().put("selector", "env=prod"))
            .put("version", new JsonObject().put("pin", "0.9.2"))
            .put("approval", "Automatic");
    if (team != null) {
      body.put("team", team);
    }
    expect(api.json("PUT", "/api/v1/subscriptions/" + name, ADMIN, body), 201);
  }

  private void approve(String cluster, String subscription, String token) {
    expect(
        api.json(
            "POST",
            "/api/v1/clusters/" + cluster + "/approvals",
            token,
            new JsonObject()
                .put("subscription", subscription)
                .put("bundle", "etcdoperator.v0.9.4")),
        201);
  }

  private String rollout(String subscription) {
    return expect(
            api.json(
                "POST",
                "/api/v1/rollouts",
                ADMIN,
                new JsonObject()
                    .put("subscription", subscription)
                    .put("targetVersion", "0.9.4")
                    .put("strategy", new JsonObject().put("soakSeconds", 3600))),
            201)
        .json()
        .getString("id");
  }

  static Response expect(Response response, int status) {
    if (response.status() != status) {
      throw new IllegalStateException(
          "expected " + status + ", got " + response.status() + ": " + response.body());
    }
    return response;
  }
}
