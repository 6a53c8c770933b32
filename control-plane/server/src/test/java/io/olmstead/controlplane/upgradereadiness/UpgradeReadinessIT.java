package io.olmstead.controlplane.upgradereadiness;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Upgrade readiness through the REST API on real PostgreSQL: a catalog whose bundles carry
 * olm.maxOpenShiftVersion, clusters whose versions come from each source (HostedCluster, agent,
 * label, none), and the operators they run.
 */
class UpgradeReadinessIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static String alphaViewer;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(UpgradeReadinessIT.class);
    api = new ApiClient(cp);
    assertThat(api.json("PUT", "/api/v1/catalogs/ocp", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    Response uploaded =
        api.send(
            "POST",
            "/api/v1/catalogs/ocp/revisions",
            ADMIN,
            "application/x-ndjson",
            catalog().getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(uploaded.status()).as(uploaded.body()).isEqualTo(201);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status, facts) VALUES "
            + "('hosted-1', '{\"olmstead.io/team\":\"alpha\"}', 'connected',"
            + " '{\"hypershift\":{\"desiredVersion\":\"4.16.2\"},\"openshiftVersion\":\"4.15.9\"}'),"
            + "('agent-1', '{\"olmstead.io/team\":\"alpha\"}', 'connected', '{\"openshiftVersion\":\"4.16.0\"}'),"
            + "('labelled-1', '{\"hypershift.olmstead.io/version\":\"4.19.1\"}', 'connected', '{}'),"
            + "('plain-1', '{}', 'connected', '{\"kubernetesVersion\":\"v1.30.0\"}'),"
            + "('beta-1', '{\"olmstead.io/team\":\"beta\",\"hypershift.olmstead.io/version\":\"4.16.0\"}', 'connected',"
            + " '{}'), ('gone-1', '{\"hypershift.olmstead.io/version\":\"4.16.0\"}', 'retired', '{}')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscriptions (name, catalog, package, namespace, version_kind,"
            + " version_value, approval, team, created_by) VALUES"
            + " ('op-alpha', 'ocp', 'op', 'op-ns', 'follow', 'stable', 'Automatic', 'alpha', 'test'),"
            + " ('legacy-beta', 'ocp', 'legacy', 'legacy-ns', 'follow', 'stable', 'Automatic', 'beta', 'test')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_bundle,"
            + " installed_version, phase, seq) VALUES ('op-alpha', 'hosted-1', 'op.v1.0.0', '1.0.0', 'Succeeded', 1),"
            + " ('legacy-beta', 'hosted-1', 'legacy.v1.0.0', '1.0.0', 'Succeeded', 1),"
            + " ('op-alpha', 'agent-1', 'op.v1.1.0', '1.1.0', 'Succeeded', 1),"
            + " ('op-alpha', 'beta-1', 'op.v1.0.0', '1.0.0', 'Succeeded', 1)");
    alphaViewer = api.createToken(ADMIN, "alpha-viewer", "viewer", List.of("alpha"));
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void
      aClusterIsBlockedFromItsNextMinorByAnOperatorWhoseMaximumIsBelowItWithTheVersionsThatWouldUnblockIt() {
    JsonObject r = ok("/api/v1/clusters/hosted-1/upgrade-readiness", ADMIN);
    assertThat(r.getString("version")).isEqualTo("4.16.2");
    assertThat(r.getString("versionSource"))
        .as("the HostedCluster's desired version wins")
        .isEqualTo("hostedCluster");
    assertThat(r.getString("target")).isEqualTo("4.17");
    assertThat(r.getBoolean("upgradeable")).isFalse();
    assertThat(r.getInteger("operators")).isEqualTo(2);
    JsonArray blocking = r.getJsonArray("blocking");
    assertThat(blocking).hasSize(2);
    JsonObject legacy = blocking.getJsonObject(0);
    assertThat(legacy.getString("subscription")).isEqualTo("legacy-beta");
    assertThat(legacy.getJsonArray("unblockedBy")).isEmpty();
    JsonObject op = blocking.getJsonObject(1);
    assertThat(op.getString("bundle")).isEqualTo("op.v1.0.0");
    assertThat(op.getString("maxOpenShiftVersion")).isEqualTo("4.16");
    assertThat(op.getJsonArray("unblockedBy").getList()).containsExactly("1.1.0", "2.0.0");
    assertThat(r.getString("message"))
        .startsWith("The following operators block OpenShift upgrades: ")
        .contains(
            "Operator op.v1.0.0 in namespace op-ns is not compatible with OpenShift versions greater than 4.16");

    JsonObject agent = ok("/api/v1/clusters/agent-1/upgrade-readiness", ADMIN);
    assertThat(agent.getString("versionSource")).isEqualTo("agent");
    assertThat(agent.getBoolean("upgradeable")).as("op 1.1.0 allows 4.17").isTrue();
    JsonObject plain = ok("/api/v1/clusters/plain-1/upgrade-readiness", ADMIN);
    assertThat(plain.containsKey("upgradeable")).isFalse();
    assertThat(plain.getString("message")).contains("no OpenShift version");
  }

  @Test
  void theFleetIsGroupedByWhetherEachClusterCanGoToTheVersion() {
    JsonObject r = ok("/api/v1/upgrade-readiness?version=4.18", ADMIN);
    assertThat(names(r.getJsonArray("blocked"))).containsExactly("agent-1", "beta-1", "hosted-1");
    assertThat(names(r.getJsonArray("atOrPast"))).containsExactly("labelled-1");
    assertThat(names(r.getJsonArray("unknown"))).containsExactly("plain-1");
    assertThat(names(r.getJsonArray("ready"))).isEmpty();
    JsonObject agent = r.getJsonArray("blocked").getJsonObject(0);
    assertThat(
            agent.getJsonArray("blocking").getJsonObject(0).getJsonArray("unblockedBy").getList())
        .as("1.1.0 stops at 4.17")
        .containsExactly("2.0.0");

    JsonObject next = ok("/api/v1/upgrade-readiness", ADMIN);
    assertThat(next.getValue("version")).isNull();
    assertThat(names(next.getJsonArray("ready")))
        .as("each against its own next minor")
        .containsExactly("agent-1", "labelled-1");
    assertThat(names(next.getJsonArray("blocked"))).containsExactly("beta-1", "hosted-1");
  }

  @Test
  void aTeamSeesOnlyItsClustersAndAnotherTeamsOperatorCountsWithoutItsNames() {
    JsonObject fleet = ok("/api/v1/upgrade-readiness?version=4.17", alphaViewer);
    List<String> all = new java.util.ArrayList<>();
    for (String group : List.of("ready", "blocked", "atOrPast", "unknown")) {
      all.addAll(names(fleet.getJsonArray(group)));
    }
    assertThat(all).containsExactlyInAnyOrder("hosted-1", "agent-1");
    assertThat(api.get("/api/v1/clusters/beta-1/upgrade-readiness", alphaViewer).status())
        .isEqualTo(404);
    JsonObject hosted = ok("/api/v1/clusters/hosted-1/upgrade-readiness", alphaViewer);
    assertThat(hosted.getBoolean("upgradeable")).isFalse();
    JsonObject hidden =
        hosted.getJsonArray("blocking").stream()
            .map(JsonObject.class::cast)
            .filter(b -> b.getBoolean("hidden", false))
            .findFirst()
            .orElseThrow();
    assertThat(hidden.encode()).doesNotContain("legacy");
    assertThat(hosted.getString("message"))
        .doesNotContain("legacy")
        .contains("An operator of another team");
  }

  @Test
  void aVersionThatIsNotAMajorMinorIsA400NamingIt() {
    JsonObject ten = ok("/api/v1/upgrade-readiness?version=4.10", ADMIN);
    assertThat(ten.getString("version")).as("4.10 is not the number 4.1").isEqualTo("4.10");
    Response bad = api.get("/api/v1/upgrade-readiness?version=latest", ADMIN);
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.header("content-type")).isEqualTo("application/problem+json");
    assertThat(bad.body()).contains("version");
  }

  private static JsonObject ok(String path, String token) {
    Response r = api.get(path, token);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private static List<String> names(JsonArray entries) {
    return entries.stream().map(e -> ((JsonObject) e).getString("cluster")).toList();
  }

  private static String catalog() {
    return String.join(
        "\n",
        "{\"schema\":\"olm.package\",\"name\":\"op\",\"defaultChannel\":\"stable\"}",
        "{\"schema\":\"olm.channel\",\"package\":\"op\",\"name\":\"stable\",\"entries\":[{\"name\":\"op.v1.0.0\"},"
            + "{\"name\":\"op.v1.1.0\",\"replaces\":\"op.v1.0.0\"},{\"name\":\"op.v2.0.0\",\"replaces\":\"op.v1.1.0\"}]}",
        bundle("op", "1.0.0", "4.16"),
        bundle("op", "1.1.0", "4.17"),
        bundle("op", "2.0.0", null),
        "{\"schema\":\"olm.package\",\"name\":\"legacy\",\"defaultChannel\":\"stable\"}",
        "{\"schema\":\"olm.channel\",\"package\":\"legacy\",\"name\":\"stable\",\"entries\":[{\"name\":\"legacy.v1.0.0\"}]}",
        bundle("legacy", "1.0.0", "4.16"),
        "");
  }

  private static String bundle(String pkg, String version, String max) {
    return "{\"schema\":\"olm.bundle\",\"package\":\""
        + pkg
        + "\",\"name\":\""
        + pkg
        + ".v"
        + version
        + "\",\"image\":\"quay.io/example/"
        + pkg
        + ":"
        + version
        + "\",\"properties\":[{\"type\":\"olm.package\","
        + "\"value\":{\"packageName\":\""
        + pkg
        + "\",\"version\":\""
        + version
        + "\"}}"
        + (max == null ? "" : ",{\"type\":\"olm.maxOpenShiftVersion\",\"value\":\"" + max + "\"}")
        + "]}";
  }
}
