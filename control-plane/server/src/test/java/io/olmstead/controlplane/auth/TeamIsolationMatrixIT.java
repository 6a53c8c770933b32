package io.olmstead.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.http.ApiContract;
import io.olmstead.controlplane.http.OperationPolicy;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Team isolation over every read of the spec and the event stream: alpha's viewer, operator and
 * admin never see a name or id of beta's or of no team's (lists leave them out, pages are full and
 * their cursors hold only alpha's keys, a direct read is the same 404 as for a name that does not
 * exist, no foreign event arrives). The operations come from {@code openapi.yaml}, so a new read
 * operation without a case here fails {@link #everyReadOperationOfTheSpecHasACase}.
 */
class TeamIsolationMatrixIT {
  private static final AtomicInteger ROUND = new AtomicInteger();
  private static TestControlPlane cp;
  private static TeamWorld world;
  private static final Map<String, Case> CASES = new TreeMap<>();

  /** The checks of one read operation for one of alpha's tokens. */
  interface Case {
    void check(TeamReads reads) throws Exception;
  }

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TeamIsolationMatrixIT.class);
    world = TeamWorld.build(cp);
    // one adoption snapshot of the world's status rows (the timer's first sample may come later)
    cp.controlPlane()
        .adoption()
        .sampler()
        .sampleNow()
        .toCompletionStage()
        .toCompletableFuture()
        .join();
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  /**
   * TeamReads: GETs, and the operations a viewer may call (they change nothing, like the rollout
   * preview).
   */
  static Stream<String> readOperations() {
    return ApiContract.load().policies().values().stream()
        .filter(OperationPolicy::apiTokenAuth)
        .filter(p -> !p.mutation() || p.role().orElseThrow() == Role.VIEWER)
        .map(OperationPolicy::operationId)
        .sorted();
  }

  static Stream<Arguments> readsByRole() {
    return readOperations()
        .flatMap(op -> Stream.of(Role.values()).map(role -> Arguments.of(op, role)));
  }

  @Test
  void everyReadOperationOfTheSpecHasACase() {
    assertThat(CASES.keySet()).isEqualTo(readOperations().collect(Collectors.toSet()));
  }

  @ParameterizedTest(name = "{0} as alpha {1}")
  @MethodSource("readsByRole")
  void alphaSeesNothingOfAnotherTeamOrOfNoTeam(String operationId, Role role) throws Exception {
    Case check = CASES.get(operationId);
    assertThat(check).as("an isolation case for " + operationId).isNotNull();
    TeamReads reads = new TeamReads(world, world.alpha.get(role));
    if (!role.includes(ApiContract.load().policy(operationId).orElseThrow().role().orElseThrow())) {
      return; // RoleMatrixIT: refused with 403 before any team comes into it
    }
    check.check(reads);
  }

  /**
   * A rollout stays with the team it was started for: its subscription cannot change team while it
   * runs, and after it ended the new team does not inherit it (its members are the old team's
   * clusters).
   */
  @Test
  void aRolloutStaysWithTheTeamItWasStartedFor() {
    String gamma = world.enrollmentToken(TeamWorld.ADMIN, "gamma").getString("token");
    TeamWorld.expect(world.enroll(gamma, "gamma-1"), 201);
    JsonObject spec =
        new JsonObject()
            .put("catalog", "demo")
            .put("package", "etcd")
            .put("channel", "alpha")
            .put("namespace", "etcd-gamma")
            .put("placement", new JsonObject().put("selector", "env=prod"))
            .put("version", new JsonObject().put("pin", "0.9.2"))
            .put("approval", "Automatic")
            .put("team", "gamma");
    TeamWorld.expect(
        world.api.json("PUT", "/api/v1/subscriptions/gamma-sub", TeamWorld.ADMIN, spec), 201);
    String rollout =
        TeamWorld.expect(
                world.api.json(
                    "POST",
                    "/api/v1/rollouts",
                    TeamWorld.ADMIN,
                    new JsonObject()
                        .put("subscription", "gamma-sub")
                        .put("targetVersion", "0.9.4")),
                201)
            .json()
            .getString("id");

    Response moved =
        world.api.json(
            "PUT",
            "/api/v1/subscriptions/gamma-sub",
            TeamWorld.ADMIN,
            spec.copy().put("team", "delta"));
    assertThat(moved.status()).as(moved.body()).isEqualTo(409);
    TeamWorld.expect(
        world.api.send(
            "POST",
            "/api/v1/rollouts/" + rollout + "/abort",
            TeamWorld.ADMIN,
            null,
            null,
            Map.of()),
        200);
    TeamWorld.expect(
        world.api.json(
            "PUT",
            "/api/v1/subscriptions/gamma-sub",
            TeamWorld.ADMIN,
            spec.copy().put("team", "delta")),
        200);
    String deltaViewer =
        world.api.createToken(TeamWorld.ADMIN, "delta-viewer", "viewer", List.of("delta"));
    String gammaViewer =
        world.api.createToken(TeamWorld.ADMIN, "gamma-viewer", "viewer", List.of("gamma"));
    assertThat(world.api.get("/api/v1/rollouts/" + rollout, deltaViewer).status()).isEqualTo(404);
    assertThat(world.api.get("/api/v1/rollouts/" + rollout, gammaViewer).status()).isEqualTo(200);
  }

  static {
    CASES.put("listCatalogs", r -> r.visible("/catalogs"));
    CASES.put("getCatalog", r -> r.visible("/catalogs/demo"));
    CASES.put("listCatalogRevisions", r -> r.visible("/catalogs/demo/revisions"));
    CASES.put("listCatalogPackages", r -> r.visible("/catalogs/demo/packages"));
    CASES.put("getCatalogPackage", r -> r.visible("/catalogs/demo/packages/etcd"));
    CASES.put(
        "getUpgradePath",
        r ->
            r.visible(
                "/catalogs/demo/packages/etcd/channels/alpha/upgrade-path"
                    + "?from=etcdoperator.v0.9.2"));
    // catalogs and what is derived from them (maturity reports, bundle images) are shared by every
    // team
    CASES.put(
        "getBundleMaturity",
        r -> r.visible("/catalogs/community/packages/etcd/bundles/etcd.v0.9.4/maturity"));
    CASES.put("getCatalogMaturity", r -> r.visible("/catalogs/community/maturity"));
    CASES.put(
        "getMaturityDiff",
        r ->
            r.visible(
                "/catalogs/community/packages/etcd/maturity-diff"
                    + "?from=etcd.v0.9.2&to=etcd.v0.9.4"));
    CASES.put(
        "getBundle", r -> assertThat(r.status("/bundles/sha256:" + "0".repeat(64))).isEqualTo(404));
    CASES.put(
        "whoAmI",
        r ->
            assertThat(r.visible("/whoami").json().getJsonArray("teams").getList())
                .containsExactly("alpha"));
    CASES.put(
        "listClusters",
        r -> {
          assertThat(r.names(r.walk("/clusters"), "name")).containsExactly("alpha-1", "alpha-2");
          assertThat(
                  r.names(
                      r.visible("/clusters?selector=env%3Dprod&status=pending").items(), "name"))
              .containsExactly("alpha-1", "alpha-2");
        });
    CASES.put(
        "getCluster",
        r -> {
          r.visible("/clusters/alpha-1");
          r.hidden("/clusters/beta-1", "beta-1", "ghost-1");
          r.hidden("/clusters/nobody-1", "nobody-1", "ghost-1");
        });
    CASES.put(
        "listClusterApprovals",
        r -> {
          assertThat(r.names(r.walk("/clusters/alpha-1/approvals"), "subscription"))
              .containsExactly("alpha-sub");
          r.hidden("/clusters/beta-1/approvals", "beta-1", "ghost-1");
        });
    CASES.put(
        "getClusterUpgradeReadiness",
        r -> {
          assertThat(r.visible("/clusters/alpha-1/upgrade-readiness").json().getString("cluster"))
              .isEqualTo("alpha-1");
          r.hidden("/clusters/beta-1/upgrade-readiness", "beta-1", "ghost-1");
          r.hidden("/clusters/nobody-1/upgrade-readiness", "nobody-1", "ghost-1");
        });
    CASES.put(
        "getFleetUpgradeReadiness",
        r -> {
          JsonObject fleet = r.visible("/upgrade-readiness?version=4.18").json();
          List<String> names = new java.util.ArrayList<>();
          for (String group : List.of("ready", "blocked", "atOrPast", "unknown")) {
            names.addAll(r.names(fleet.getJsonArray(group), "cluster"));
          }
          assertThat(names).containsExactlyInAnyOrder("alpha-1", "alpha-2");
        });
    CASES.put(
        "listEnrollmentTokens",
        r ->
            assertThat(r.walk("/enrollment-tokens"))
                .isNotEmpty()
                .allSatisfy(
                    t ->
                        assertThat(t.getJsonObject("labels").getString(Principal.TEAM_LABEL))
                            .isEqualTo("alpha")));
    CASES.put(
        "getEnrollmentToken",
        r -> {
          r.visible("/enrollment-tokens/" + world.alphaEnrollment);
          r.hidden(
              "/enrollment-tokens/" + world.betaEnrollment,
              world.betaEnrollment,
              UUID.randomUUID().toString());
        });
    CASES.put(
        "listTokens",
        r ->
            assertThat(r.names(r.walk("/tokens"), "name"))
                .containsExactlyElementsOf(world.alphaTokenNames.stream().sorted().toList()));
    CASES.put(
        "listAudit",
        r -> assertThat(r.status("/audit")).as("the audit log spans every team").isEqualTo(403));
    CASES.put(
        "listPoolTokens",
        r ->
            assertThat(r.status("/pool-tokens")).as("pool tokens serve every team").isEqualTo(403));
    CASES.put(
        "listSubscriptions",
        r -> assertThat(r.names(r.walk("/subscriptions"), "name")).containsExactly("alpha-sub"));
    CASES.put(
        "getSubscription",
        r -> {
          r.visible("/subscriptions/alpha-sub");
          r.hidden("/subscriptions/beta-sub", "beta-sub", "ghost-sub");
          r.hidden("/subscriptions/nobody-sub", "nobody-sub", "ghost-sub");
        });
    CASES.put(
        "getSubscriptionPlacement",
        r -> {
          assertThat(r.names(r.walk("/subscriptions/alpha-sub/placement"), "name"))
              .containsExactly("alpha-1", "alpha-2");
          r.hidden("/subscriptions/beta-sub/placement", "beta-sub", "ghost-sub");
        });
    CASES.put(
        "getSubscriptionStatus",
        r -> {
          JsonObject status = r.visible("/subscriptions/alpha-sub/status").json();
          assertThat(r.names(status.getJsonArray("items"), "cluster")).containsExactly("alpha-1");
          assertThat(status.getJsonObject("byPhase").getMap()).isEqualTo(Map.of("Succeeded", 1));
          r.hidden("/subscriptions/nobody-sub/status", "nobody-sub", "ghost-sub");
        });
    CASES.put(
        "getSubscriptionAdoption",
        r -> {
          // alpha-sub's foreign report (beta-1) is not counted: only alpha-1's 0.9.2
          JsonObject adoption =
              r.visible("/subscriptions/alpha-sub/adoption?since=PT1H&step=PT1M").json();
          var points = adoption.getJsonArray("points");
          assertThat(points.getJsonObject(points.size() - 1).getJsonObject("clusters").getMap())
              .isEqualTo(Map.of("0.9.2", 1));
          r.hidden("/subscriptions/beta-sub/adoption", "beta-sub", "ghost-sub");
          r.hidden("/subscriptions/nobody-sub/adoption", "nobody-sub", "ghost-sub");
        });
    CASES.put(
        "listRollouts",
        r -> {
          assertThat(r.names(r.walk("/rollouts"), "id")).containsExactly(world.alphaRollout);
          assertThat(r.visible("/rollouts?subscription=beta-sub").items()).isEmpty();
        });
    CASES.put(
        "getRollout",
        r -> {
          r.visible("/rollouts/" + world.alphaRollout);
          r.hidden("/rollouts/" + world.betaRollout, world.betaRollout, "ro-0000000-0000");
          r.hidden("/rollouts/" + world.nobodyRollout, world.nobodyRollout, "ro-0000000-0000");
        });
    CASES.put(
        "listRolloutClusters",
        r -> {
          assertThat(
                  r.names(
                      r.visible("/rollouts/" + world.alphaRollout + "/clusters").items(), "name"))
              .isNotEmpty()
              .allSatisfy(name -> assertThat(name).startsWith("alpha-"));
          r.hidden(
              "/rollouts/" + world.nobodyRollout + "/clusters",
              world.nobodyRollout,
              "ro-0000000-0000");
        });
    CASES.put(
        "previewRollout",
        r -> {
          assertThat(r.preview("alpha-sub").status()).isEqualTo(200);
          r.noForeign(r.preview("alpha-sub"));
          r.hiddenPreview("beta-sub");
          r.hiddenPreview("nobody-sub");
        });
    // the calendar is fleet-wide like catalogs: every team reads all of it (changes: RoleMatrix,
    // CalendarIT)
    CASES.put("listMaintenanceWindows", r -> r.visible("/maintenance-windows"));
    CASES.put(
        "getMaintenanceWindow",
        r ->
            calendarEntry(
                r,
                "/maintenance-windows/fleet-nights",
                new JsonObject()
                    .put("cron", "0 1 * * *")
                    .put("durationMinutes", 60)
                    .put("timeZone", "UTC")));
    CASES.put("listFreezes", r -> r.visible("/freezes"));
    CASES.put(
        "getFreeze",
        r ->
            calendarEntry(
                r,
                "/freezes/fleet-freeze",
                new JsonObject()
                    .put("start", "2026-12-20T00:00:00Z")
                    .put("end", "2026-12-21T00:00:00Z")));
    CASES.put("streamEvents", TeamIsolationMatrixIT::events);
    CASES.put(
        "getClusterInventory",
        r -> {
          inventories();
          assertThat(
                  r.names(
                      r.visible("/clusters/alpha-1/inventory").json().getJsonArray("operators"),
                      "package"))
              .containsExactly("alpha-pkg");
          r.hidden("/clusters/beta-1/inventory", "beta-1", "ghost-1");
          r.hidden("/clusters/nobody-1/inventory", "nobody-1", "ghost-1");
        });
    CASES.put(
        "getFleetInventory",
        r -> {
          inventories();
          assertThat(r.names(r.visible("/inventory").items(), "package"))
              .containsExactly("alpha-pkg");
          r.noForeign(r.visible("/inventory?selector=env%20in%20(prod,dev)"));
          assertThat(r.visible("/inventory?team=beta").items()).isEmpty();
        });
    // analysis templates: alpha's and the fleet's are read, beta's is the 404 of a missing one and
    // never listed
    CASES.put(
        "listAnalysisTemplates",
        r -> {
          templates();
          assertThat(r.names(r.walk("/analysis-templates"), "name"))
              .containsExactly("fleet-errors", "alpha-errors");
        });
    CASES.put(
        "getAnalysisTemplate",
        r -> {
          templates();
          r.visible("/analysis-templates/alpha-errors?team=alpha");
          r.visible("/analysis-templates/fleet-errors");
          r.hidden("/analysis-templates/beta-errors?team=beta", "beta-errors", "ghost-errors");
        });
    // webhooks carry the team of their maker: alpha's admin sees its own only (others:
    // viewer/operator get 403)
    CASES.put(
        "listWebhooks",
        r -> {
          webhooks();
          assertThat(r.names(r.walk("/webhooks"), "name")).containsExactly("alpha-hook");
        });
    CASES.put(
        "getWebhook",
        r -> {
          webhooks();
          r.visible("/webhooks/alpha-hook");
          r.hidden("/webhooks/beta-hook", "beta-hook", "ghost-hook");
          r.hidden("/webhooks/nobody-hook", "nobody-hook", "ghost-hook");
        });
    CASES.put(
        "listWebhookDeliveries",
        r -> {
          webhooks();
          r.visible("/webhooks/alpha-hook/deliveries");
          r.hidden("/webhooks/beta-hook/deliveries", "beta-hook", "ghost-hook");
        });
    // the dashboard's aggregates: alpha-sub's Failed report from beta-1 is not counted, beta's and
    // no team's
    // subscriptions are not listed, and clusters count only alpha's
    CASES.put(
        "getFleetSummary",
        r -> {
          JsonObject summary = r.visible("/fleet/summary").json();
          assertThat(r.names(summary.getJsonArray("items"), "subscription"))
              .containsExactly("alpha-sub");
          JsonObject alphaSub = summary.getJsonArray("items").getJsonObject(0);
          assertThat(alphaSub.getLong("clusters")).isEqualTo(1);
          assertThat(alphaSub.getLong("failed")).isZero();
          assertThat(alphaSub.getJsonArray("failures")).isEmpty();
          assertThat(
                  r.visible("/fleet/summary?selector=env%3Dprod")
                      .json()
                      .getJsonArray("items")
                      .getJsonObject(0)
                      .getLong("clusters"))
              .isEqualTo(1);
        });
    // the matrix: rows are alpha's clusters, columns alpha's subscriptions (nobody-sub on alpha-1
    // is no cell), every
    // page full; naming another team's subscription is the 400 of one that does not exist
    CASES.put(
        "getFleetMatrix",
        r -> {
          JsonObject matrix = r.visible("/fleet/matrix").json();
          assertThat(r.names(matrix.getJsonArray("subscriptions"), "name"))
              .containsExactly("alpha-sub");
          assertThat(r.names(r.walk("/fleet/matrix"), "cluster"))
              .containsExactly("alpha-1", "alpha-2");
          assertThat(r.names(r.walk("/fleet/matrix?sort=-version:alpha-sub"), "cluster"))
              .containsExactly("alpha-1", "alpha-2");
          JsonObject alpha1 = matrix.getJsonArray("items").getJsonObject(0);
          assertThat(alpha1.getJsonObject("cells").fieldNames()).containsExactly("alpha-sub");
          for (String foreign : List.of("beta-sub", "nobody-sub")) {
            Response refused =
                world.api.get("/api/v1/fleet/matrix?subscriptions=" + foreign, r.token);
            Response ghost = world.api.get("/api/v1/fleet/matrix?subscriptions=ghost-sub", r.token);
            assertThat(refused.status()).isEqualTo(400);
            JsonObject refusedBody = refused.json();
            refusedBody.remove("requestId");
            JsonObject ghostBody = ghost.json();
            ghostBody.remove("requestId");
            assertThat(refusedBody.encode().replace(foreign, "ghost-sub"))
                .isEqualTo(ghostBody.encode());
          }
        });
    CASES.put(
        "getFleetClustersByLabel",
        r -> {
          JsonObject byTeam = r.visible("/fleet/clusters-by-label?label=olmstead.io/team").json();
          assertThat(r.names(byTeam.getJsonArray("items"), "value")).containsExactly("alpha");
          assertThat(byTeam.getJsonArray("items").getJsonObject(0).getLong("total")).isEqualTo(2);
          assertThat(
                  r.names(
                      r.visible("/fleet/clusters-by-label?label=env").json().getJsonArray("items"),
                      "value"))
              .containsExactly("prod");
        });
    // waiting reports of every combination, removed afterwards (other cases count alpha-sub's
    // status rows)
    CASES.put(
        "listWaitingApprovals",
        r -> {
          String rows =
              "('alpha-sub', 'alpha-2'), ('alpha-sub', 'beta-2'), ('beta-sub', 'alpha-2'), "
                  + "('beta-sub', 'beta-2'), ('nobody-sub', 'alpha-2'), ('nobody-sub', 'nobody-1')";
          sql(
              "INSERT INTO subscription_status (subscription, cluster, phase, conditions) SELECT v.s, v.c, "
                  + "'RequiresApproval', '[{\"type\":\"RequiresApproval\",\"message\":\"etcdoperator.v0.9.4\"}]' "
                  + "FROM (VALUES "
                  + rows
                  + ") AS v(s, c)");
          try {
            List<JsonObject> waiting = r.walk("/approvals");
            assertThat(r.names(waiting, "cluster")).containsExactly("alpha-2");
            assertThat(r.names(waiting, "subscription")).containsExactly("alpha-sub");
            assertThat(r.visible("/approvals?subscription=beta-sub").items()).isEmpty();
          } finally {
            sql("DELETE FROM subscription_status WHERE (subscription, cluster) IN (" + rows + ")");
          }
        });
    CASES.put(
        "listEdgeRisks",
        r -> {
          // beta's failure on an edge: alpha sees the risk, its facts and a count, never beta's
          // cluster or team
          sql(
              "INSERT INTO edge_risk_observations (team, package, from_version, to_version, cluster, risk_id, facts, "
                  + "failed, detail, source, observed_at) VALUES ('beta', 'etcd', '0.9.2', '0.9.4', 'beta-1', "
                  + "'00000000000000be', '{\"labels\": {}}', true, 'beta-1 failed', 'rollouts/ro-beta', now())");
          try {
            JsonObject risk = r.visible("/edge-risks").items().getJsonObject(0);
            assertThat(risk.getJsonArray("evidence")).isEmpty();
            assertThat(risk.getJsonObject("otherTeams").getInteger("failures")).isEqualTo(1);
            assertThat(r.visible("/edge-risks/00000000000000be").json().getJsonArray("evidence"))
                .isEmpty();
          } finally {
            sql("DELETE FROM edge_risk_observations WHERE risk_id = '00000000000000be'");
          }
        });
    CASES.put(
        "getEdgeRisk", r -> assertThat(r.status("/edge-risks/" + "0".repeat(16))).isEqualTo(404));
    CASES.put(
        "listClusterSubscriptions",
        r -> {
          assertThat(r.names(r.visible("/clusters/alpha-1/subscriptions").items(), "subscription"))
              .containsExactly("alpha-sub");
          r.hidden("/clusters/beta-1/subscriptions", "beta-1", "ghost-1");
          r.hidden("/clusters/nobody-1/subscriptions", "nobody-1", "ghost-1");
        });
  }

  private static boolean templatesMade;

  /** alpha's, beta's and a fleet-wide analysis template, written by the admin of no team. */
  private static synchronized void templates() {
    if (templatesMade) {
      return;
    }
    for (String path :
        List.of("alpha-errors?team=alpha", "beta-errors?team=beta", "fleet-errors")) {
      TeamWorld.expect(
          world.api.json(
              "PUT",
              "/api/v1/analysis-templates/" + path,
              TeamWorld.ADMIN,
              new JsonObject().put("query", "up").put("successIf", "< 1")),
          201);
    }
    templatesMade = true;
  }

  private static boolean webhooksMade;

  /**
   * alpha's, beta's and a fleet-wide webhook (their patterns match no event: nothing is ever sent).
   */
  private static synchronized void webhooks() {
    if (webhooksMade) {
      return;
    }
    String[][] hooks = {{"alpha-hook", "alpha"}, {"beta-hook", "beta"}, {"nobody-hook", null}};
    for (String[] hook : hooks) {
      JsonObject body =
          new JsonObject()
              .put("name", hook[0])
              .put("url", "https://receiver.example.com/" + hook[0])
              .put("events", new io.vertx.core.json.JsonArray().add("io.olmstead.nothing.*"))
              .put("secret", "0123456789abcdef0123");
      if (hook[1] != null) {
        body.put("team", hook[1]);
      }
      TeamWorld.expect(world.api.json("POST", "/api/v1/webhooks", TeamWorld.ADMIN, body), 201);
    }
    webhooksMade = true;
  }

  /**
   * Inventories as agents of alpha-1, beta-1 and nobody-1 would report them, each its own team's
   * package.
   */
  private static void inventories() {
    for (String cluster : List.of("alpha-1", "beta-1", "nobody-1")) {
      String pkg = cluster.substring(0, cluster.indexOf('-')) + "-pkg";
      sql(
          "INSERT INTO cluster_inventory (cluster, operators) VALUES ('"
              + cluster
              + "', '[{\"subscription\":\""
              + pkg
              + "\",\"namespace\":\"ns\",\"package\":\""
              + pkg
              + "\"}]') ON CONFLICT DO NOTHING");
      sql(
          "INSERT INTO cluster_inventory_operators (cluster, subscription, package, version) VALUES ('"
              + cluster
              + "', '"
              + pkg
              + "', '"
              + pkg
              + "', '1.0.0') ON CONFLICT DO NOTHING");
    }
  }

  /** An admin-made calendar entry is visible to alpha's token, and a missing one is a plain 404. */
  private static void calendarEntry(TeamReads r, String path, JsonObject spec) {
    Response put = world.api.json("PUT", "/api/v1" + path, TeamWorld.ADMIN, spec);
    assertThat(put.status()).as(put.body()).isIn(200, 201);
    assertThat(r.visible(path).json().getString("name"))
        .isEqualTo(path.substring(path.lastIndexOf('/') + 1));
    assertThat(r.status(path + "-ghost")).isEqualTo(404);
  }

  /**
   * beta's and no team's clusters, subscriptions, rollouts and approvals change (through the API
   * and through the rows the triggers watch), then alpha's cluster: alpha's stream gets alpha's
   * event and none of theirs, while an unscoped admin's stream gets them all (so the changes did
   * make events).
   */
  private static void events(TeamReads r) throws Exception {
    int round = ROUND.incrementAndGet();
    try (EventRecorder mine = new EventRecorder(cp.baseUrl(), r.token);
        EventRecorder all = new EventRecorder(cp.baseUrl(), TeamWorld.ADMIN)) {
      r.patchLabel(TeamWorld.ADMIN, "beta-1", round);
      r.patchLabel(TeamWorld.ADMIN, "nobody-1", round);
      String enrolled = "beta-r" + round;
      TeamWorld.expect(world.enroll(world.betaEnrollmentSecret, enrolled), 201);
      TeamWorld.expect(world.api.delete("/api/v1/clusters/" + enrolled, TeamWorld.ADMIN), 204);
      sql(
          "UPDATE subscriptions SET resource_version = resource_version + 1 WHERE name IN ('beta-sub', 'nobody-sub')");
      sql(
          "UPDATE rollouts SET updated_at = now() WHERE id IN ('"
              + world.betaRollout
              + "', '"
              + world.nobodyRollout
              + "')");
      sql(
          "INSERT INTO rollout_approvals (subscription, cluster, version, rollout_id) VALUES ('beta-other', "
              + "'beta-2', '0.9."
              + round
              + "', '"
              + world.betaRollout
              + "') ON CONFLICT (subscription, cluster) DO "
              + "UPDATE SET version = EXCLUDED.version");
      r.patchLabel(TeamWorld.ADMIN, "alpha-2", round);

      List<JsonObject> seen = mine.until("cluster", "alpha-2");
      seen.forEach(e -> r.noForeign(e.encode()));
      Set<String> everything =
          all.until("cluster", "alpha-2").stream()
              .map(e -> e.getString("id"))
              .collect(Collectors.toSet());
      assertThat(everything)
          .contains(
              "beta-1",
              "nobody-1",
              enrolled,
              "beta-sub",
              "nobody-sub",
              world.betaRollout,
              world.nobodyRollout,
              "beta-2");
    }
  }

  private static void sql(String statement) {
    TestDatabase.execute(cp.database(), statement);
  }
}
