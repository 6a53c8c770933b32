package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code table} and {@code wide} rows, the cuts that keep hosted clusters' rows short, and
 * watch's change test.
 */
class OutputFormatTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final String HOSTED =
      "clusters-hosted-production-eu-west-1-a1b2c3d4-payments-gateway-0042";

  private static JsonNode hostedCluster() throws Exception {
    return Api.JSON.readTree(
        "{\"name\":\""
            + HOSTED
            + "\",\"status\":\"connected\",\"labels\":{"
            + "\"hypershift.olmstead.io/name\":\"payments-gateway-0042\",\"hypershift.olmstead.io/namespace\":"
            + "\"clusters-hosted-production-eu-west-1-a1b2c3d4\",\"hypershift.olmstead.io/platform\":\"AWS\","
            + "\"hypershift.olmstead.io/version\":\"4.17.3\",\"env\":\"prod\"},\"agentVersion\":\"0.1.0\","
            + "\"kubernetesVersion\":\"v1.30.4\",\"lastSeen\":\"2026-11-27T11:59:50Z\",\"createdAt\":"
            + "\"2026-11-25T12:00:00Z\"}");
  }

  @Test
  void aHostedClustersTableRowStaysShortAndItsWideRowIsWhole() throws Exception {
    JsonNode cluster = hostedCluster();
    List<String> row = Kind.clusters.row(cluster, null, NOW, Output.table);
    String line =
        new Table(Kind.clusters.columns(Output.table))
            .row(row)
            .render()
            .lines()
            .skip(1)
            .findFirst()
            .orElseThrow();
    assertThat(line.length()).isLessThanOrEqualTo(150);
    assertThat(row.get(0))
        .hasSize(Kind.NAME_WIDTH)
        .startsWith("clusters-hosted-pro")
        .endsWith("gateway-0042")
        .contains("...");
    assertThat(row.get(2)).hasSizeLessThanOrEqualTo(Kind.LABELS_WIDTH).endsWith("...");
    List<String> wide = Kind.clusters.row(cluster, null, NOW, Output.wide);
    assertThat(wide.get(0)).isEqualTo(HOSTED);
    assertThat(wide.get(2)).contains("hypershift.olmstead.io/version=4.17.3", "env=prod");
    assertThat(Kind.clusters.columns(Output.wide)).contains("openshift");
    assertThat(wide.get(Kind.clusters.columns(Output.wide).indexOf("openshift")))
        .isEqualTo("4.17.3");
  }

  @Test
  void shortNamesAreNotCut() {
    assertThat(Output.fit("eu-0001", 40)).isEqualTo("eu-0001");
    assertThat(Output.fit("abcdefghijkl", 9)).isEqualTo("abc...jkl");
    assertThat(Output.cut("abcdefghijkl", 9)).isEqualTo("abcdef...");
  }

  @Test
  void rolloutRowsCountBlockedApartFromFailed() throws Exception {
    JsonNode rollout =
        Api.JSON.readTree(
            "{\"id\":\"ro-1\",\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\","
                + "\"state\":\"Progressing\",\"counts\":{\"clusters\":5,\"succeeded\":3,\"failed\":1,\"blocked\":1},"
                + "\"waves\":[{\"name\":\"canary\",\"state\":\"Open\"}],\"startedAt\":\"2026-11-27T11:59:00Z\"}");
    List<String> columns = Kind.rollouts.columns(Output.table);
    List<String> row = Kind.rollouts.row(rollout, null, NOW, Output.table);
    assertThat(row.get(columns.indexOf("progress"))).isEqualTo("3/5");
    assertThat(row.get(columns.indexOf("failed"))).isEqualTo("1");
    assertThat(row.get(columns.indexOf("blocked"))).isEqualTo("1");
  }

  @Test
  void aRolledBackRolloutsWaveReadsRolledBackAsOnTheDashboard() throws Exception {
    JsonNode rollout =
        Api.JSON.readTree(
            "{\"state\":\"RolledBack\",\"waves\":["
                + "{\"name\":\"canary\",\"state\":\"Succeeded\",\"openedAt\":\"2026-11-27T11:00:00Z\"},"
                + "{\"name\":\"batch-1\",\"state\":\"Open\",\"openedAt\":\"2026-11-27T11:05:00Z\"},"
                + "{\"name\":\"batch-2\",\"state\":\"Pending\"}]}");
    assertThat(Kind.currentWave(rollout)).isEqualTo("batch-1 (RolledBack)");
  }

  @Test
  void watchReprintsOnlyRowsThatChangedBesidesTheirAges() {
    List<String> columns = List.of("name", "status", "last-seen", "age");
    String before = WatchChanges.withoutAges(columns, List.of("eu-1", "connected", "3s", "2d"));
    String later = WatchChanges.withoutAges(columns, List.of("eu-1", "connected", "9s", "2d"));
    String offline = WatchChanges.withoutAges(columns, List.of("eu-1", "offline", "60s", "2d"));
    assertThat(later).isEqualTo(before);
    assertThat(WatchChanges.changed(Map.of("eu-1", before), Map.of("eu-1", later))).isEmpty();
    assertThat(WatchChanges.changed(Map.of("eu-1", before), Map.of("eu-1", offline, "eu-2", "x")))
        .containsExactlyInAnyOrder("eu-1", "eu-2");
    assertThat(WatchChanges.gone(Map.of("eu-1", before, "eu-3", "y"), Map.of("eu-1", later)))
        .containsExactly("eu-3");
  }

  @Test
  void watchFollowsTheEventsOfItsKindAndName() {
    assertThat(EventWatch.relevant(Kind.clusters, null, "cluster", "eu-1")).isTrue();
    assertThat(EventWatch.relevant(Kind.clusters, "eu-2", "cluster", "eu-1")).isFalse();
    assertThat(EventWatch.relevant(Kind.clusters, null, "rollout", "ro-1")).isFalse();
    assertThat(EventWatch.relevant(Kind.rollouts, "ro-1", "rollout", "ro-1")).isTrue();
    // a subscription's row counts its clusters' reports
    assertThat(EventWatch.relevant(Kind.subscriptions, "etcd", "cluster", "eu-1")).isTrue();
  }

  @Test
  void nestedFactsPrintAsDottedKeysNotEmptyValues() throws Exception {
    JsonNode facts =
        Api.JSON.readTree(
            "{\"hypershift\":{\"platform\":\"AWS\",\"release\":{\"version\":\"4.17.3\"},"
                + "\"zones\":[\"a\",\"b\"]},\"nodes\":3}");
    assertThat(Facts.lines(facts))
        .containsExactly(
            "hypershift.platform: AWS",
            "hypershift.release.version: 4.17.3",
            "hypershift.zones: a,b",
            "nodes: 3");
  }

  @Test
  void aClustersSubscriptionsPrintVersionTargetPhaseAndTheReasonOfThoseNotSucceeded()
      throws Exception {
    JsonNode answer =
        Api.JSON.readTree(
            "{\"cluster\":\"eu-1\",\"items\":[{\"subscription\":\"etcd\",\"package\":"
                + "\"etcd\",\"installedVersion\":\"0.9.2\",\"targetVersion\":\"0.9.4\",\"phase\":\"RequiresApproval\","
                + "\"reason\":\"RequiresApproval\",\"message\":\"etcdoperator.v0.9.4\"},{\"subscription\":\"dns\","
                + "\"package\":\"dns-operator\",\"installedVersion\":\"1.0.0\",\"targetVersion\":\"1.0.0\",\"phase\":"
                + "\"Succeeded\",\"reason\":\"InstallSucceeded\"}]}");
    StringWriter text = new StringWriter();
    ClusterSubscriptions.print(answer, new PrintWriter(text, true));
    assertThat(text.toString())
        .startsWith("Subscriptions:\n  SUBSCRIPTION")
        .containsPattern(
            "  etcd +etcd +0\\.9\\.2 +0\\.9\\.4 +RequiresApproval +RequiresApproval: etcdoperator\\.v0\\.9\\.4")
        .containsPattern("  dns +dns-operator +1\\.0\\.0 +1\\.0\\.0 +Succeeded +<none>");
  }
}
