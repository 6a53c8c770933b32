package io.olmstead.controlplane.cli.client;

import static io.olmstead.controlplane.cli.client.CliRun.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.fleet.FleetSummaryIT;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code olmstead get matrix} and {@code get subscriptions --clusters} against a control plane
 * holding {@link FleetSummaryIT#fixture}: a column per subscription with version and phase, the
 * reasons in {@code wide}, the selector and the sort passed to the server, {@code -o name|json},
 * the server's 400 as a one-line error, and {@code --watch} printing a row again when its cells
 * change.
 */
class CliMatrixIT {
  private static TestControlPlane cp;
  private static Path home;

  @BeforeAll
  static void start() throws Exception {
    cp = TestControlPlane.start(CliMatrixIT.class);
    FleetSummaryIT.fixture(cp);
    home = Files.createTempDirectory("olmstead-cli-matrix");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void getMatrixPrintsAColumnPerSubscriptionWithVersionAndPhase() {
    List<String> lines = ok(cli("get", "matrix")).out().lines().toList();
    assertThat(lines.get(0)).matches("CLUSTER +STATUS +ETCD +OTHER");
    assertThat(lines).hasSize(5).as("us-2 is retired").noneMatch(l -> l.startsWith("us-2"));
    assertThat(lines.stream().filter(l -> l.startsWith("eu-1 ")).findFirst().orElseThrow())
        .matches("eu-1 +connected +0\\.9\\.4 +0\\.9\\.2 RequiresApproval");
    assertThat(lines.stream().filter(l -> l.startsWith("bare-1 ")).findFirst().orElseThrow())
        .matches("bare-1 +pending +- +none RequiresApproval");
  }

  @Test
  void subscriptionsWithClustersIsTheMatrixOfTheNamedSubscriptionsWithReasonsInWide() {
    String out =
        ok(cli("get", "subscriptions", "etcd", "--clusters", "-l", "region=us", "-o", "wide"))
            .out();
    List<String> lines = out.lines().toList();
    assertThat(lines.get(0)).matches("CLUSTER +STATUS +ETCD +LABELS +REASONS");
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1))
        .startsWith("us-1")
        .contains("0.9.2 Failed")
        .contains("region=us")
        .endsWith("etcd: Failed (ImagePullBackOff: quay.io/etcd:0.9.4 not found)");
  }

  @Test
  void sortNameAndJsonOutputsComeFromTheServer() {
    assertThat(
            ok(cli("get", "matrix", "etcd", "--sort", "-version:etcd", "-o", "name")).out().lines())
        .containsExactly("cluster/eu-1", "cluster/us-1", "cluster/eu-2", "cluster/bare-1");
    JsonObject json =
        new JsonObject(ok(cli("get", "matrix", "-o", "json", "-l", "region=eu")).out());
    assertThat(json.getJsonArray("items")).hasSize(2);
    assertThat(json.getJsonArray("subscriptions").getJsonObject(0).getString("name"))
        .isEqualTo("etcd");
  }

  @Test
  void aBadSortIsTheServersOneLineErrorAndClustersNeedsSubscriptions() {
    CliRun bad = cli("get", "matrix", "etcd", "--sort", "version:nope");
    CliRun.oneLine(bad, ExitCodes.ERROR, "nope");
    CliRun.oneLine(
        cli("get", "clusters", "--clusters"),
        ExitCodes.USAGE,
        "--clusters goes with get subscriptions");
  }

  @Test
  void getMatrixWatchPrintsARowAgainWhenItsCellsChangeAndEndsAtItsTimeout() throws Exception {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status) VALUES "
            + "('w-1', '{\"env\":\"prod\",\"watch\":\"yes\"}', 'connected')");
    try {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CliContext ctx =
          new CliContext(
              Map.of(
                  "XDG_CONFIG_HOME",
                  home.toString(),
                  "OLMSTEAD_URL",
                  cp.baseUrl(),
                  "OLMSTEAD_TOKEN",
                  TestControlPlane.ADMIN_TOKEN),
              new ByteArrayInputStream(new byte[0]),
              new PrintWriter(out, true),
              new PrintWriter(err, true),
              Duration.ofMillis(200));
      CompletableFuture<Integer> watch =
          CompletableFuture.supplyAsync(
              () ->
                  OlmsteadCli.run(
                      new String[] {
                        "get", "matrix", "etcd", "-l", "watch=yes", "-w", "--timeout", "PT8S"
                      },
                      ctx));
      await().atMost(Duration.ofSeconds(10)).until(() -> out.toString().contains("w-1"));
      // its agent reports a failed install; a cluster event (a relabelling) makes the watch read
      // the matrix again
      TestDatabase.execute(
          cp.database(),
          "INSERT INTO subscription_status (subscription, cluster, installed_version, "
              + "target_version, phase) VALUES ('etcd', 'w-1', '0.9.2', '0.9.4', 'Failed')");
      assertThat(
              new ApiClient(cp)
                  .send(
                      "PATCH",
                      "/api/v1/clusters/w-1",
                      TestControlPlane.ADMIN_TOKEN,
                      "application/merge-patch+json",
                      "{\"labels\":{\"tier\":\"gold\"}}".getBytes(StandardCharsets.UTF_8),
                      Map.of())
                  .status())
          .isEqualTo(200);
      await().atMost(Duration.ofSeconds(10)).until(() -> out.toString().contains("0.9.2 Failed"));
      assertThat(watch.get(20, TimeUnit.SECONDS)).as(err.toString()).isZero();
      List<String> lines = out.toString().lines().toList();
      assertThat(lines.get(0)).matches("CLUSTER +STATUS +ETCD");
      assertThat(lines).filteredOn(l -> l.startsWith("CLUSTER")).hasSize(1);
      assertThat(lines).filteredOn(l -> l.startsWith("w-1")).hasSize(2);
      assertThat(lines.get(1)).matches("w-1 +connected +-");
      assertThat(lines.get(2)).matches("w-1 +connected +0\\.9\\.2 Failed");
      assertThat(err.toString()).doesNotContain("polling");
    } finally {
      TestDatabase.execute(cp.database(), "DELETE FROM subscription_status WHERE cluster = 'w-1'");
      TestDatabase.execute(cp.database(), "DELETE FROM clusters WHERE name = 'w-1'");
    }
  }

  private static CliRun cli(String... args) {
    return CliRun.run(
        Map.of(
            "XDG_CONFIG_HOME",
            home.toString(),
            "OLMSTEAD_URL",
            cp.baseUrl(),
            "OLMSTEAD_TOKEN",
            TestControlPlane.ADMIN_TOKEN),
        "",
        args);
  }
}
