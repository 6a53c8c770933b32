package io.olmstead.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /fleet/matrix} on real PostgreSQL over {@link FleetSummaryIT#fixture} plus 30 clusters
 * m-01..m-30 of team-a running etcd at 0.9.2 (odd) or 0.10.0 (even), and a subscription of team-a
 * only its team sees: keyset pages, numeric version order, the selector, team filtering, each
 * cell's reason, and 400s naming the parameter.
 */
class FleetMatrixIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static String teamA;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(FleetMatrixIT.class);
    api = new ApiClient(cp);
    FleetSummaryIT.fixture(cp);
    assertThat(
            api.json(
                    "PUT",
                    "/api/v1/subscriptions/team-a-etcd",
                    ADMIN,
                    new JsonObject()
                        .put("catalog", "community")
                        .put("package", "etcd")
                        .put("channel", "stable")
                        .put("namespace", "team-a")
                        .put("placement", new JsonObject().put("selector", "env=prod"))
                        .put("version", new JsonObject().put("follow", "channel"))
                        .put("approval", "Automatic"))
                .status())
        .isEqualTo(201);
    TestDatabase.execute(
        cp.database(), "UPDATE subscriptions SET team = 'team-a' WHERE name = 'team-a-etcd'");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status) SELECT 'm-' || lpad(i::text, 2, "
            + "'0'), jsonb_build_object('env', 'prod', 'region', 'ap', 'olmstead.io/team', 'team-a'), 'connected' "
            + "FROM generate_series(1, 30) i");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "target_version, phase) SELECT s, 'm-' || lpad(i::text, 2, '0'), CASE WHEN i % 2 = 0 THEN '0.10.0' "
            + "ELSE '0.9.2' END, '0.10.0', CASE WHEN i % 2 = 0 THEN 'Succeeded' ELSE 'Upgrading' END "
            + "FROM generate_series(1, 30) i, unnest(ARRAY['etcd', 'team-a-etcd']) s");
    teamA = api.createToken(ADMIN, "matrix-team-a", "viewer", List.of("team-a"));
    // pinned at 0.9.4: eu-1 settled at 0.9.2 where the control plane asks (no rollout), us-1 at the
    // pin
    assertThat(
            api.json(
                    "PUT",
                    "/api/v1/subscriptions/pinned",
                    ADMIN,
                    new JsonObject()
                        .put("catalog", "community")
                        .put("package", "etcd")
                        .put("channel", "stable")
                        .put("namespace", "pinned")
                        .put("placement", new JsonObject().put("selector", "region=eu"))
                        .put("version", new JsonObject().put("pin", "0.9.4"))
                        .put("approval", "Automatic"))
                .status())
        .isEqualTo(201);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "target_version, phase) VALUES ('pinned', 'eu-1', '0.9.2', '0.9.2', 'Succeeded'), "
            + "('pinned', 'us-1', '0.9.4', '0.9.4', 'Succeeded')");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void pagesOverEveryClusterOnceInNameOrderInBothDirections() {
    List<String> expected = new ArrayList<>(List.of("bare-1", "eu-1", "eu-2", "us-1"));
    IntStream.rangeClosed(1, 30).forEach(i -> expected.add(String.format("m-%02d", i)));
    Collections.sort(expected);
    assertThat(walk("sort=name", ADMIN, 7)).as("us-2 is retired").isEqualTo(expected);
    List<String> reversed = new ArrayList<>(expected);
    Collections.reverse(reversed);
    assertThat(walk("sort=-name", ADMIN, 7)).isEqualTo(reversed);
  }

  @Test
  void sortsByAColumnsVersionComparingNumbersWithClustersNotRunningItLast() {
    List<String> byVersion = walk("sort=version:etcd", ADMIN, 4);
    List<String> odd =
        IntStream.rangeClosed(1, 30)
            .filter(i -> i % 2 == 1)
            .mapToObj(i -> String.format("m-%02d", i))
            .toList();
    List<String> even =
        IntStream.rangeClosed(1, 30)
            .filter(i -> i % 2 == 0)
            .mapToObj(i -> String.format("m-%02d", i))
            .toList();
    // 0.9.2 (eu-2, m-odd, us-1) before 0.9.4 (eu-1) before 0.10.0 (m-even); bare-1 runs no etcd
    List<String> expected = new ArrayList<>();
    expected.add("eu-2");
    expected.addAll(odd);
    expected.add("us-1");
    expected.add("eu-1");
    expected.addAll(even);
    expected.add("bare-1");
    assertThat(byVersion).isEqualTo(expected);
    List<String> descending = walk("sort=-version:etcd", ADMIN, 4);
    assertThat(descending.get(0)).isEqualTo("m-30");
    assertThat(descending.get(descending.size() - 1)).isEqualTo("bare-1");
    assertThat(walk("sort=phase:etcd", ADMIN, 5).subList(0, 2))
        .as("Failed sorts first")
        .containsExactly("eu-2", "us-1");
  }

  @Test
  void eachCellHasVersionPhaseAndTheReasonItIsNotAtItsTarget() {
    JsonObject page =
        ok(api.get(
                "/api/v1/fleet/matrix?subscriptions=etcd,other&selector="
                    + enc("!olmstead.io/team"),
                ADMIN))
            .json();
    assertThat(
            page.getJsonArray("subscriptions").stream()
                .map(s -> ((JsonObject) s).getString("name")))
        .containsExactly("etcd", "other");
    JsonObject eu1 = row(page, "eu-1").getJsonObject("cells");
    assertThat(eu1.getJsonObject("etcd").getString("installedVersion")).isEqualTo("0.9.4");
    assertThat(eu1.getJsonObject("etcd").getString("phase")).isEqualTo("Succeeded");
    assertThat(eu1.getJsonObject("etcd").getValue("reason")).as("at its target").isNull();
    assertThat(eu1.getJsonObject("other").getJsonObject("reason").getString("code"))
        .isEqualTo("WaitingForApproval");
    assertThat(eu1.getJsonObject("other").getJsonObject("reason").getString("message"))
        .startsWith("WaitingForApproval (bundle etcd.v0.9.4, since ");
    JsonObject us1 = row(page, "us-1").getJsonObject("cells").getJsonObject("etcd");
    assertThat(us1.getJsonObject("reason").getString("message"))
        .isEqualTo("Failed (ImagePullBackOff: quay.io/etcd:0.9.4 not found)");
    assertThat(
            row(page, "eu-2")
                .getJsonObject("cells")
                .getJsonObject("etcd")
                .getJsonObject("reason")
                .getString("code"))
        .as("disconnected before failed")
        .isEqualTo("Disconnected");
    assertThat(row(page, "bare-1").getJsonObject("cells").containsKey("etcd"))
        .as("not running: no cell")
        .isFalse();
  }

  @Test
  void aClusterSettledBelowItsDeclaredPolicyThatNoRolloutHoldsIsBehindPolicy() {
    JsonObject page = ok(api.get("/api/v1/fleet/matrix?subscriptions=pinned,etcd", ADMIN)).json();
    JsonObject behind =
        row(page, "eu-1").getJsonObject("cells").getJsonObject("pinned").getJsonObject("reason");
    assertThat(behind.getString("code")).isEqualTo("BehindPolicy");
    assertThat(behind.getString("subject")).isEqualTo("0.9.4");
    assertThat(behind.getString("message")).isEqualTo("BehindPolicy (runs 0.9.2, policy 0.9.4)");
    assertThat(row(page, "us-1").getJsonObject("cells").getJsonObject("pinned").getValue("reason"))
        .as("at the pin")
        .isNull();
    // etcd follows the channel, whose head is 0.9.4: eu-1 runs it
    assertThat(row(page, "eu-1").getJsonObject("cells").getJsonObject("etcd").getValue("reason"))
        .isNull();
  }

  @Test
  void theSelectorPicksTheRows() {
    assertThat(walk("selector=" + enc("region in (eu)"), ADMIN, 50))
        .containsExactly("eu-1", "eu-2");
  }

  @Test
  void anotherTeamsClustersAndSubscriptionsNeverAppear() {
    JsonObject page = ok(api.get("/api/v1/fleet/matrix?limit=500", teamA)).json();
    assertThat(
            page.getJsonArray("subscriptions").stream()
                .map(s -> ((JsonObject) s).getString("name")))
        .containsExactly("team-a-etcd");
    List<String> clusters = walk("", teamA, 500);
    assertThat(clusters).hasSize(30).allMatch(c -> c.startsWith("m-"));
    page.getJsonArray("items")
        .forEach(
            i ->
                assertThat(((JsonObject) i).getJsonObject("cells").fieldNames())
                    .containsExactly("team-a-etcd"));
    Response other = api.get("/api/v1/fleet/matrix?subscriptions=etcd", teamA);
    assertThat(other.status()).isEqualTo(400);
    assertThat(other.body()).contains("query.subscriptions").contains("no subscription etcd");
    assertThat(
            ok(api.get("/api/v1/fleet/matrix", ADMIN)).json().getJsonArray("subscriptions").stream()
                .map(s -> ((JsonObject) s).getString("name")))
        .contains("etcd", "other", "team-a-etcd");
  }

  @Test
  void badParametersAre400NamingTheParameter() {
    String many =
        IntStream.rangeClosed(1, 21).mapToObj(i -> "s" + i).collect(Collectors.joining(","));
    for (String[] bad :
        new String[][] {
          {"selector=" + enc("env in (prod"), "query.selector"},
          {"subscriptions=" + enc("Not_A_Name"), "subscriptions"},
          {"subscriptions=" + many, "query.subscriptions"},
          {"subscriptions=nope", "query.subscriptions"},
          {"sort=size", "sort"},
          {"sort=version:nope", "query.sort"},
          {"cursor=abc", "query.cursor"},
          {"limit=0", "limit"},
          {"limit=501", "limit"}
        }) {
      Response response = api.get("/api/v1/fleet/matrix?" + bad[0], ADMIN);
      assertThat(response.status()).as(bad[0]).isEqualTo(400);
      assertThat(response.headers().firstValue("content-type").orElse(""))
          .as(bad[0])
          .startsWith("application/problem+json");
      assertThat(response.body()).as(bad[0]).contains(bad[1]);
    }
    // a cursor of the name order sent with a version order
    String cursor =
        ok(api.get("/api/v1/fleet/matrix?limit=1", ADMIN)).json().getString("nextCursor");
    Response mixed =
        api.get("/api/v1/fleet/matrix?limit=1&sort=version:etcd&cursor=" + cursor, ADMIN);
    assertThat(mixed.status()).isEqualTo(400);
    assertThat(mixed.body()).contains("query.cursor");
  }

  private static List<String> walk(String query, String token, int limit) {
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonObject page =
          ok(api.get(
                  "/api/v1/fleet/matrix?limit="
                      + limit
                      + (query.isEmpty() ? "" : "&" + query)
                      + (cursor == null ? "" : "&cursor=" + cursor),
                  token))
              .json();
      assertThat(page.getJsonArray("items").size()).isLessThanOrEqualTo(limit);
      page.getJsonArray("items").forEach(i -> seen.add(((JsonObject) i).getString("cluster")));
      cursor = page.getString("nextCursor");
      assertThat(++pages).isLessThan(100);
    } while (cursor != null);
    assertThat(seen).doesNotHaveDuplicates();
    return seen;
  }

  private static JsonObject row(JsonObject page, String cluster) {
    return page.getJsonArray("items").stream()
        .map(i -> (JsonObject) i)
        .filter(i -> cluster.equals(i.getString("cluster")))
        .findFirst()
        .orElseThrow();
  }

  private static Response ok(Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
