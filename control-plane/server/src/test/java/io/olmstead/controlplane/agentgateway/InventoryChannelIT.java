package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Heartbeat;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Inventory reports over the agent channel: a valid one replaces the cluster's previous inventory;
 * reports sent in a burst are coalesced (the newest wins); an absurd count closes with 4002 naming
 * the field, an oversized report with 4004, a report about another cluster with 4006; a report the
 * schema allows but that makes no sense (an operator twice) is ignored and counted, the connection
 * stays open; the stored inventory never changes on bad input.
 */
class InventoryChannelIT {
  private static final long MAX_TOTAL = 9_007_199_254_740_991L;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static Vertx vertx;
  private static String token;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TestDatabase.create(InventoryChannelIT.class), Map.of());
    api = new ApiClient(cp);
    token = new ChannelFixtures(cp.database()).enrollmentToken(100, 600, "{}", null);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close();
    cp.close();
  }

  @Test
  void aReportReplacesTheClustersInventoryAndABurstIsCoalescedToTheNewest() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-burst");
    Scrape before = Scrape.of(cp.baseUrl());
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      for (int count = 1; count <= 4; count++) {
        agent.sendMessage(report(null, "etcd", count));
      }
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(() -> assertThat(crCount("inv-burst")).isEqualTo(4));
      Scrape after = Scrape.of(cp.baseUrl());
      assertThat(
              after.value("olmstead_inventory_reports_total{outcome=\"stored\"}")
                  - before.value("olmstead_inventory_reports_total{outcome=\"stored\"}"))
          .isEqualTo(2.0);
      assertThat(
              after.value("olmstead_inventory_reports_total{outcome=\"coalesced\"}")
                  - before.value("olmstead_inventory_reports_total{outcome=\"coalesced\"}"))
          .isEqualTo(2.0);
    }
  }

  @Test
  void anAbsurdCountClosesTheConnectionNamingTheFieldAndStoresNothing() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-absurd");
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      JsonObject json = new JsonObject(ProtocolCodec.encode(report(null, "etcd", 1)));
      json.getJsonArray("operators")
          .getJsonObject(0)
          .getJsonArray("customResources")
          .getJsonObject(0)
          .put("count", 1_000_000_000_000L);
      agent.send(json.encode());
      assertThat(agent.awaitClose()).isEqualTo(CloseReason.MALFORMED_MESSAGE.code());
      assertThat(agent.closeReason).contains("customResources[0].count");
    }
    assertThat(inventory("inv-absurd").getJsonArray("operators")).isEmpty();
  }

  @Test
  void anOversizedReportIsRefusedAsTooBig() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-big");
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      List<Inventory.CustomResources> crs =
          IntStream.range(0, Inventory.MAX_CUSTOM_RESOURCE_KINDS)
              .mapToObj(i -> new Inventory.CustomResources("x".repeat(240) + i, "Kind", 1, null))
              .toList();
      List<Inventory.Operator> ops =
          IntStream.range(0, Inventory.MAX_OPERATORS)
              .mapToObj(
                  i ->
                      new Inventory.Operator(
                          "op-" + i,
                          "ns",
                          "pkg",
                          null,
                          null,
                          "Succeeded",
                          null,
                          null,
                          crs,
                          null,
                          null))
              .toList();
      agent.sendMessage(new Inventory(1, null, null, ops, null));
      assertThat(agent.awaitClose()).isEqualTo(CloseReason.MESSAGE_TOO_BIG.code());
    }
    assertThat(inventory("inv-big").getJsonArray("operators")).isEmpty();
  }

  @Test
  void aReportAboutAnotherClusterIsRefused() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-mine");
    Enroll.credential(cp.baseUrl(), token, "inv-theirs");
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      agent.sendMessage(report("inv-theirs", "etcd", 7));
      assertThat(agent.awaitClose()).isEqualTo(CloseReason.WRONG_CLUSTER.code());
    }
    assertThat(inventory("inv-theirs").getJsonArray("operators")).isEmpty();
    assertThat(inventory("inv-mine").getJsonArray("operators")).isEmpty();
    // audited as what it was: an inventory report (it was once recorded as agent.status)
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(
                        api
                            .get("/api/v1/audit?limit=500", TestControlPlane.ADMIN_TOKEN)
                            .items()
                            .stream()
                            .map(JsonObject.class::cast)
                            .filter(e -> "rejected-wrong-cluster".equals(e.getString("outcome"))))
                    .singleElement()
                    .satisfies(
                        e -> {
                          assertThat(e.getString("action")).isEqualTo("agent.inventory");
                          assertThat(e.getString("resource")).isEqualTo("clusters/inv-mine");
                        }));
  }

  @Test
  void aSenselessReportIsIgnoredAndCountedWhileTheConnectionStaysOpen() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-twice");
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      agent.sendMessage(report(null, "etcd", 5));
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(() -> assertThat(crCount("inv-twice")).isEqualTo(5));
      Scrape before = Scrape.of(cp.baseUrl());
      Inventory.Operator op = report(null, "etcd", 9).operators().get(0);
      agent.sendMessage(new Inventory(1, null, null, List.of(op, op), null));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  Scrape.of(cp.baseUrl())
                              .value("olmstead_inventory_reports_total{outcome=\"refused\"}")
                          - before.value("olmstead_inventory_reports_total{outcome=\"refused\"}")
                      == 1.0);
      agent.sendMessage(new Heartbeat(1, null));
      assertThat(agent.next(Heartbeat.class)).as("still connected").isNotNull();
      // the stored report again, found unchanged and replacing nothing queued: had the refused one
      // been queued before it, it would have been written first (this one then stored anew) or
      // been replaced by this one (counted coalesced)
      agent.sendMessage(report(null, "etcd", 5));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  Scrape.of(cp.baseUrl())
                              .value("olmstead_inventory_reports_total{outcome=\"unchanged\"}")
                          - before.value("olmstead_inventory_reports_total{outcome=\"unchanged\"}")
                      == 1.0);
      assertThat(
              Scrape.of(cp.baseUrl())
                  .value("olmstead_inventory_reports_total{outcome=\"coalesced\"}"))
          .as("no report was waiting to be replaced")
          .isEqualTo(before.value("olmstead_inventory_reports_total{outcome=\"coalesced\"}"));
      assertThat(crCount("inv-twice")).as("the stored inventory is unchanged").isEqualTo(5);
    }
  }

  @Test
  void aReportEqualToTheStoredOneOnlyRefreshesItsTime() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-same");
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      agent.sendMessage(report(null, "etcd", 6));
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(() -> assertThat(crCount("inv-same")).isEqualTo(6));
      String first = inventory("inv-same").getString("reportedAt");
      Scrape before = Scrape.of(cp.baseUrl());
      agent.sendMessage(report(null, "etcd", 6));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  Scrape.of(cp.baseUrl())
                              .value("olmstead_inventory_reports_total{outcome=\"unchanged\"}")
                          - before.value("olmstead_inventory_reports_total{outcome=\"unchanged\"}")
                      == 1.0);
      Scrape after = Scrape.of(cp.baseUrl());
      assertThat(after.value("olmstead_inventory_reports_total{outcome=\"stored\"}"))
          .isEqualTo(before.value("olmstead_inventory_reports_total{outcome=\"stored\"}"));
      assertThat(inventory("inv-same").getString("reportedAt")).isNotEqualTo(first);
      assertThat(crCount("inv-same")).isEqualTo(6);
    }
  }

  @Test
  void theFleetInventoryIsServedInPagesOfLimitItemsFollowingNextCursor() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-pages");
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      List<Inventory.Operator> ops =
          List.of("page-a", "page-b", "page-c").stream()
              .map(
                  p ->
                      new Inventory.Operator(
                          p,
                          "ns",
                          p,
                          p + ".v1",
                          "1.0.0",
                          "Succeeded",
                          null,
                          null,
                          List.of(),
                          null,
                          List.of()))
              .toList();
      agent.sendMessage(new Inventory(1, null, null, ops, null));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> inventory("inv-pages").getJsonArray("operators").size() == 3);
    }
    List<String> seen = new java.util.ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      ApiClient.Response page =
          api.get(
              "/api/v1/inventory?limit=1" + (cursor == null ? "" : "&cursor=" + cursor),
              TestControlPlane.ADMIN_TOKEN);
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      assertThat(page.json().getJsonArray("items").size()).isLessThanOrEqualTo(1);
      page.json()
          .getJsonArray("items")
          .forEach(o -> seen.add(((JsonObject) o).getString("package")));
      cursor = page.json().getString("nextCursor");
      pages++;
    } while (cursor != null && pages < 100);
    assertThat(seen).containsSubsequence("page-a", "page-b", "page-c").doesNotHaveDuplicates();
    assertThat(pages).isGreaterThanOrEqualTo(3);
    assertThat(api.get("/api/v1/inventory?cursor=forged", TestControlPlane.ADMIN_TOKEN).status())
        .isEqualTo(400);
  }

  @Test
  void theFleetInventoryCountsOnlySucceededInstallsAsInstallsAndFailedOnesApart() throws Exception {
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-phases");
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      List<Inventory.Operator> ops =
          List.of("Succeeded", "Failed", "Installing").stream()
              .map(
                  phase ->
                      new Inventory.Operator(
                          "phase-" + phase,
                          "ns",
                          "inv-phase",
                          "inv-phase.v1",
                          "1.0.0",
                          phase,
                          null,
                          null,
                          List.of(),
                          null,
                          List.of()))
              .toList();
      agent.sendMessage(new Inventory(1, null, null, ops, null));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> inventory("inv-phases").getJsonArray("operators").size() == 3);
    }
    // a second cluster whose only install of the package failed: not a cluster where it is
    // installed
    try (RawAgent agent =
        RawAgent.connect(
            vertx, cp.port(), Enroll.credential(cp.baseUrl(), token, "inv-phases-2"))) {
      agent.handshake();
      agent.sendMessage(
          new Inventory(
              1,
              null,
              null,
              List.of(
                  new Inventory.Operator(
                      "phase-Failed",
                      "ns",
                      "inv-phase",
                      "inv-phase.v1",
                      "1.0.0",
                      "Failed",
                      null,
                      null,
                      List.of(),
                      null,
                      List.of())),
              null));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> inventory("inv-phases-2").getJsonArray("operators").size() == 1);
    }
    ApiClient.Response fleet = api.get("/api/v1/inventory?limit=500", TestControlPlane.ADMIN_TOKEN);
    assertThat(fleet.status()).as(fleet.body()).isEqualTo(200);
    JsonObject group =
        fleet.json().getJsonArray("items").stream()
            .map(JsonObject.class::cast)
            .filter(g -> "inv-phase".equals(g.getString("package")))
            .findFirst()
            .orElseThrow();
    assertThat(group.getLong("installs")).isEqualTo(1);
    assertThat(group.getLong("failedInstalls")).isEqualTo(2);
    assertThat(group.getLong("clusters")).isEqualTo(1);
    cp.controlPlane()
        .inventory()
        .refreshMetrics()
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(Scrape.of(cp.baseUrl()).value("olmstead_inventory_clusters{package=\"inv-phase\"}"))
        .isEqualTo(1.0);
  }

  /**
   * Red-team (stop 20): each number of a report is bounded by the schema (memory at most 2^53-1),
   * their sums over operators and clusters are not. One agent reporting 11 operators of one package
   * with 100 stacks at the largest memory each made {@code GET /inventory} fail for every caller
   * (bigint out of range, answered 400) and the scrape's metrics' refresh fail; sums now saturate
   * at 2^53-1, the largest integer a JSON reader keeps exactly.
   */
  @Test
  void oneAgentsLargestNumbersSaturateTheFleetTotalsInsteadOfBreakingTheReadsForEveryone()
      throws Exception {
    String token = new ChannelFixtures(cp.database()).enrollmentToken(10, 600, "{}", null);
    String credential = Enroll.credential(cp.baseUrl(), token, "inv-huge");
    Inventory.Resources most = new Inventory.Resources(1_000_000_000L, MAX_TOTAL);
    Inventory.Pods pods = new Inventory.Pods(1, 1_000_000_000L, most, most, most);
    List<Inventory.Stack> stacks =
        IntStream.range(0, 100)
            .mapToObj(i -> new Inventory.Stack("Deployment", "ns", "s" + i, pods))
            .toList();
    List<Inventory.Operator> ops =
        IntStream.range(0, 11)
            .mapToObj(
                i ->
                    new Inventory.Operator(
                        "sub-" + i,
                        "ns",
                        "aaa-huge",
                        "aaa-huge.v1",
                        "1.0.0",
                        "Succeeded",
                        null,
                        null,
                        List.of(
                            new Inventory.CustomResources(
                                "etcdclusters.etcd.database.coreos.com",
                                "EtcdCluster",
                                100_000_000L,
                                null)),
                        pods,
                        stacks))
            .toList();
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      agent.sendMessage(new Inventory(1, null, null, ops, null));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  api.get("/api/v1/clusters/inv-huge/inventory", TestControlPlane.ADMIN_TOKEN)
                          .json()
                          .getJsonArray("operators")
                          .size()
                      == 11);
    }
    ApiClient.Response fleet = api.get("/api/v1/inventory", TestControlPlane.ADMIN_TOKEN);
    assertThat(fleet.status()).as(fleet.body()).isEqualTo(200);
    JsonObject huge = fleet.json().getJsonArray("items").getJsonObject(0);
    assertThat(huge.getString("package")).isEqualTo("aaa-huge");
    JsonObject application = huge.getJsonObject("applicationPods");
    assertThat(application.getJsonObject("requests").getLong("memoryBytes")).isEqualTo(MAX_TOTAL);
    assertThat(application.getLong("count")).isEqualTo(1100);
    // sums below the cap stay exact
    assertThat(huge.getJsonObject("operatorPods").getJsonObject("requests").getLong("cpuMillis"))
        .isEqualTo(11_000_000_000L);
    // the gauges' per-package totals are read with the same sums
    cp.controlPlane()
        .inventory()
        .refreshMetrics()
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, java.util.concurrent.TimeUnit.SECONDS);
  }

  static Inventory report(String cluster, String subscription, long count) {
    Inventory.Resources r = new Inventory.Resources(100, 1 << 20);
    return new Inventory(
        1,
        null,
        cluster,
        List.of(
            new Inventory.Operator(
                subscription,
                "ns",
                "etcd",
                "etcdoperator.v0.9.4",
                "0.9.4",
                "Succeeded",
                null,
                null,
                List.of(
                    new Inventory.CustomResources(
                        "etcdclusters.etcd.database.coreos.com", "EtcdCluster", count, null)),
                new Inventory.Pods(1, 0, r, r, null),
                List.of())),
        null);
  }

  private static JsonObject inventory(String cluster) {
    ApiClient.Response response =
        api.get("/api/v1/clusters/" + cluster + "/inventory", TestControlPlane.ADMIN_TOKEN);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json();
  }

  private static long crCount(String cluster) {
    JsonArray operators = inventory(cluster).getJsonArray("operators");
    return operators.isEmpty()
        ? -1
        : operators
            .getJsonObject(0)
            .getJsonArray("customResources")
            .getJsonObject(0)
            .getLong("count");
  }
}
