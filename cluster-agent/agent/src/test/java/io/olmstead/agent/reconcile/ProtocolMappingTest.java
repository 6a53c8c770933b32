package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.DesiredSubscription;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtocolMappingTest {
  @Test
  void desiredSubscriptionsKeepEveryFieldTheLoopNeeds() {
    var wire =
        new DesiredSubscription(
            "etcd",
            "community",
            "sha256:ab",
            "etcd",
            "singlenamespace-alpha",
            "etcd-ns",
            List.of("etcd-ns"),
            "Manual",
            "etcdoperator.v0.9.0",
            "0.9.4",
            Map.of("env", List.of(Map.of("name", "A", "value", "1"))),
            "Delete",
            7,
            null);
    SubscriptionToReconcile d = ProtocolMapping.fromProtocol(wire);
    assertThat(d.approval()).isEqualTo(SubscriptionToReconcile.Approval.MANUAL);
    assertThat(d.deleteCrdsOnRemoval()).isTrue();
    assertThat(d.maxVersion()).isEqualTo("0.9.4");
    assertThat(d.catalogDigest()).isEqualTo("sha256:ab");
    assertThat(d.startingBundle()).isEqualTo("etcdoperator.v0.9.0");
    assertThat(d.generation()).isEqualTo(7);
    assertThat(d.config().path("env").get(0).path("name").asText()).isEqualTo("A");
  }

  @Test
  void automaticKeepAndTheBundlesInstallModeAreTheDefaults() {
    var wire =
        new DesiredSubscription(
            "s", "c", null, "p", null, "ns", null, "Automatic", null, null, null, null, 1, null);
    SubscriptionToReconcile d = ProtocolMapping.fromProtocol(wire);
    assertThat(d.approval()).isEqualTo(SubscriptionToReconcile.Approval.AUTOMATIC);
    assertThat(d.deleteCrdsOnRemoval()).isFalse();
    assertThat(d.effectiveTargets())
        .isEmpty(); // the planner picks AllNamespaces where the CSV supports it
  }

  @Test
  void statusesMapOntoTheProtocolRecord() {
    SubscriptionStatus s =
        new SubscriptionStatus(
            "etcd",
            "etcd-ns",
            "etcdoperator.v0.9.2",
            "0.9.2",
            "etcdoperator.v0.9.4",
            "0.9.4",
            "Pending",
            "OperatorConditionNotUpgradeable",
            "operator is not upgradeable: x",
            List.of(
                new SubscriptionStatus.StatusCondition(
                    "DriftRestored", "True", "ObjectsRestored", "restored Deployment/d")),
            3);
    var wire = ProtocolMapping.toProtocol(s);
    assertThat(wire.installedBundle()).isEqualTo("etcdoperator.v0.9.2");
    assertThat(wire.targetVersion()).isEqualTo("0.9.4");
    assertThat(wire.reason()).isEqualTo("OperatorConditionNotUpgradeable");
    assertThat(wire.observedGeneration()).isEqualTo(3L);
    assertThat(wire.conditions())
        .singleElement()
        .satisfies(c -> assertThat(c.type()).isEqualTo("DriftRestored"));
  }

  @Test
  void reportedNamesAreDnsLabelsEvenForDependenciesNamedByAnOlderAgent() {
    SubscriptionStatus old =
        new SubscriptionStatus(
            "cert-manager-3.x-community",
            "ns",
            "cert-manager.v1.16.0",
            "1.16.0",
            null,
            null,
            "Succeeded",
            null,
            null,
            List.of(),
            0);
    assertThat(ProtocolMapping.toProtocol(old).name())
        .matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
        .startsWith("cert-manager-3-x-community-");
    SubscriptionStatus desired =
        new SubscriptionStatus(
            "etcd", "etcd-ns", null, null, null, null, "Pending", null, null, List.of(), 1);
    assertThat(ProtocolMapping.toProtocol(desired).name()).isEqualTo("etcd");
  }
}
