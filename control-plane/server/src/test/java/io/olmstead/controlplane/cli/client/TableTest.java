package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {
  @Test
  void alignsColumnsThreeSpacesApartWithUpperCaseHeadersAndNoTrailingBlanks() {
    String table =
        new Table(List.of("name", "status", "labels"))
            .row(List.of("eu-1", "connected", "env=prod"))
            .row(List.of("a-much-longer-name", "pending", ""))
            .render();
    assertThat(table)
        .isEqualTo(
            "NAME                 STATUS      LABELS\n"
                + "eu-1                 connected   env=prod\n"
                + "a-much-longer-name   pending     <none>\n");
  }

  @Test
  void cellsWithLineBreaksStayOnOneLine() {
    assertThat(new Table(List.of("a", "b")).row(List.of("x\ny", "z")).render())
        .isEqualTo("A     B\nx y   z\n");
  }

  @Test
  void aRowOfTheWrongWidthIsRefused() {
    assertThatThrownBy(() -> new Table(List.of("a", "b")).row(List.of("x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void clusterRowsShowStatusSortedLabelsAndAges() throws Exception {
    JsonNode cluster =
        Api.JSON.readTree(
            "{\"name\":\"eu-1\",\"status\":\"connected\",\"labels\":{\"region\":\"eu\","
                + "\"env\":\"prod\"},\"agentVersion\":\"0.1.0\",\"kubernetesVersion\":\"v1.30.2\","
                + "\"lastSeen\":\"2026-01-01T00:00:30Z\",\"createdAt\":\"2025-12-29T00:00:00Z\"}");
    assertThat(Kind.clusters.row(cluster, null, Instant.parse("2026-01-01T00:01:00Z")))
        .containsExactly(
            "eu-1", "connected", "env=prod,region=eu", "0.1.0", "v1.30.2", "30s", "3d");
  }

  @Test
  void subscriptionRowsShowThePolicyAndTheClustersByVersion() throws Exception {
    JsonNode sub =
        Api.JSON.readTree(
            "{\"name\":\"etcd\",\"package\":\"etcd\",\"catalog\":\"demo\","
                + "\"channel\":\"alpha\",\"version\":{\"pin\":\"0.9.2\"},\"approval\":\"Manual\"}");
    JsonNode status = Api.JSON.readTree("{\"clusters\":4,\"byVersion\":{\"0.9.4\":1,\"0.9.2\":3}}");
    assertThat(Kind.subscriptions.row(sub, status, Instant.now()))
        .containsExactly(
            "etcd", "etcd", "demo", "alpha", "pin 0.9.2", "Manual", "4", "0.9.2=3 0.9.4=1", "");
  }

  @Test
  void fieldsStandInForLabelsOfKindsWithout() throws Exception {
    JsonNode rollout =
        Api.JSON.readTree(
            "{\"id\":\"ro-1\",\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\","
                + "\"state\":\"Failed\"}");
    assertThat(
            Kind.selector("state in (Failed,RolledBack),subscription=etcd")
                .matches(Kind.rollouts.labelsOf(rollout)))
        .isTrue();
    assertThat(Kind.selector("state=Succeeded").matches(Kind.rollouts.labelsOf(rollout))).isFalse();
  }

  @Test
  void kindsAcceptSingularAndPluralAndNameTheChoicesOtherwise() {
    assertThat(Kind.parse("cluster")).isEqualTo(Kind.clusters);
    assertThat(Kind.parse("Subscriptions")).isEqualTo(Kind.subscriptions);
    assertThatThrownBy(() -> Kind.parse("pods"))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("clusters, subscriptions, rollouts or catalogs")
        .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(ExitCodes.USAGE));
  }
}
