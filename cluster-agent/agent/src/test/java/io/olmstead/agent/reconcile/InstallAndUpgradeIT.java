package io.olmstead.agent.reconcile;

import static io.olmstead.agent.testing.SimFixture.etcd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Install, upgrade one edge at a time, dependencies and failures against a simulated cluster with
 * real bundles.
 */
class InstallAndUpgradeIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private SimFixture sim;

  @BeforeEach
  void start() throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(false);
  }

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void installsEtcdThenUpgradesToTheNextEdgeAndRemovesTheOldBundlesObjects() {
    sim.desire(etcd("0.9.2"));
    awaitSucceeded("etcd", "etcdoperator.v0.9.2");
    assertThat(sim.sink.phases("etcd"))
        .containsSubsequence("Pending", "InstallReady", "Installing", "Succeeded");
    JsonNode deployment =
        sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator").orElseThrow();
    assertThat(sim.label(deployment, ManagedLabels.BUNDLE)).isEqualTo("etcdoperator.v0.9.2");
    assertThat(deployment.toString())
        .contains("OPERATOR_CONDITION_NAME")
        .contains("etcdoperator.v0.9.2");
    assertThat(
            sim.get(
                "apiextensions.k8s.io/v1",
                "CustomResourceDefinition",
                null,
                "etcdclusters.etcd.database.coreos.com"))
        .isPresent();
    assertThat(rolesOf("etcdoperator.v0.9.2")).isNotEmpty();

    sim.desire(etcd("0.9.4"));
    awaitSucceeded("etcd", "etcdoperator.v0.9.4");
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              assertThat(rolesOf("etcdoperator.v0.9.2")).isEmpty();
              assertThat(
                      sim.get(
                          "operators.coreos.com/v2",
                          "OperatorCondition",
                          "etcd-ns",
                          "etcdoperator.v0.9.2"))
                  .isEmpty();
            });
    assertThat(rolesOf("etcdoperator.v0.9.4")).isNotEmpty();
    JsonNode upgraded = sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator").orElseThrow();
    assertThat(sim.label(upgraded, ManagedLabels.BUNDLE)).isEqualTo("etcdoperator.v0.9.4");
    assertThat(
            sim.get(
                "operators.coreos.com/v2", "OperatorCondition", "etcd-ns", "etcdoperator.v0.9.4"))
        .isPresent();
    assertThat(sim.sink.latest("etcd").orElseThrow().installedVersion()).isEqualTo("0.9.4");
  }

  @Test
  void upgradesOneEdgeAtATimeAndNeverBeyondMaxVersion() {
    sim.desire(etcd("0.9.0").withStartingBundle("etcdoperator.v0.9.0"));
    awaitSucceeded("etcd", "etcdoperator.v0.9.0");

    sim.desire(etcd("0.9.4").withStartingBundle("etcdoperator.v0.9.0"));
    awaitSucceeded("etcd", "etcdoperator.v0.9.4");
    List<String> installed =
        sim.sink.history("etcd").stream()
            .map(SubscriptionStatus::installedBundle)
            .filter(b -> b != null)
            .distinct()
            .toList();
    assertThat(installed)
        .containsExactly("etcdoperator.v0.9.0", "etcdoperator.v0.9.2", "etcdoperator.v0.9.4");
  }

  @Test
  void stopsAtMaxVersionEvenWhenTheChannelHasNewer() throws Exception {
    sim.desire(etcd("0.9.2"));
    awaitSucceeded("etcd", "etcdoperator.v0.9.2");
    sim.awaitPasses("etcd-ns", 1); // a pass later, still at the ceiling
    assertThat(sim.sink.latest("etcd").orElseThrow().installedBundle())
        .isEqualTo("etcdoperator.v0.9.2");
    assertThat(
            sim.get(
                "operators.coreos.com/v2", "OperatorCondition", "etcd-ns", "etcdoperator.v0.9.4"))
        .isEmpty();
  }

  @Test
  void topologyOperatorPullsInTheRabbitmqClusterOperator() {
    sim.desire(
        SubscriptionToReconcile.of(
            "topology",
            "community",
            "rabbitmq-messaging-topology-operator",
            "stable",
            "rabbitmq",
            null));
    awaitSucceeded("topology", "rabbitmq-messaging-topology-operator.v1.19.3");
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              SubscriptionStatus dep =
                  sim.sink.latest("rabbitmq-cluster-operator-stable-community").orElseThrow();
              assertThat(dep.phase()).isEqualTo("Succeeded");
              assertThat(dep.installedBundle()).startsWith("rabbitmq-cluster-operator.v2.");
            });
    assertThat(sim.get("apps/v1", "Deployment", "rabbitmq", "rabbitmq-cluster-operator"))
        .isPresent();
    JsonNode depCondition =
        sim.list("operators.coreos.com/v2", "OperatorCondition").stream()
            .filter(
                oc ->
                    oc.path("metadata")
                        .path("name")
                        .asText()
                        .startsWith("rabbitmq-cluster-operator.v2."))
            .findFirst()
            .orElseThrow();
    assertThat(sim.label(depCondition, ManagedLabels.DEPENDENCY_OF)).isEqualTo("topology");
  }

  /**
   * As OLM's Manual InstallPlan covers the whole resolution: nothing of it is applied before
   * approval.
   */
  @Test
  void aManualSubscriptionsDependencyWaitsForTheApprovalOfTheBundleThatNeedsIt() throws Exception {
    String topology = "rabbitmq-messaging-topology-operator.v1.19.3";
    String dep = SubscriptionNames.implied("rabbitmq-cluster-operator", "stable", "community");
    sim.desire(
        SubscriptionToReconcile.of(
                "topology",
                "community",
                "rabbitmq-messaging-topology-operator",
                "stable",
                "rabbitmq",
                null)
            .withApproval(SubscriptionToReconcile.Approval.MANUAL));
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              assertThat(sim.sink.latest("topology").orElseThrow().phase())
                  .isEqualTo(SubscriptionStatus.REQUIRES_APPROVAL);
              SubscriptionStatus waiting = sim.sink.latest(dep).orElseThrow();
              assertThat(waiting.phase()).isEqualTo(SubscriptionStatus.REQUIRES_APPROVAL);
              assertThat(waiting.message()).contains("approval of " + topology);
              assertThat(waiting.targetBundle()).startsWith("rabbitmq-cluster-operator.v2.");
            });
    sim.awaitPasses("rabbitmq", 1); // a pass later: still nothing of the plan applied
    assertThat(sim.sink.history(dep))
        .extracting(SubscriptionStatus::phase)
        .containsOnly(SubscriptionStatus.REQUIRES_APPROVAL);
    assertThat(sim.sink.history(dep)).allMatch(s -> s.installedBundle() == null);
    assertThat(sim.get("apps/v1", "Deployment", "rabbitmq", "rabbitmq-cluster-operator")).isEmpty();
    assertThat(sim.list("operators.coreos.com/v2", "OperatorCondition")).isEmpty();

    sim.cluster.agent().approve("topology", topology);
    awaitSucceeded("topology", topology);
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> assertThat(sim.sink.latest(dep).orElseThrow().phase()).isEqualTo("Succeeded"));
    assertThat(sim.get("apps/v1", "Deployment", "rabbitmq", "rabbitmq-cluster-operator"))
        .isPresent();
  }

  @Test
  void aDependencyOnAChannelLike3xIsNamedWithAValidLabel() throws Exception {
    sim.close();
    sim =
        new SimFixture(
            SharedCatalogs.provider(
                SharedCatalogs.withChannelRenamed(
                    "rabbitmq-cluster-operator", "stable", "Stable.2.x")),
            false,
            Duration.ofSeconds(1),
            Duration.ofMillis(400));
    sim.desire(
        SubscriptionToReconcile.of(
            "topology",
            "community",
            "rabbitmq-messaging-topology-operator",
            "stable",
            "rabbitmq",
            null));
    String implied =
        SubscriptionNames.implied("rabbitmq-cluster-operator", "Stable.2.x", "community");
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () ->
                assertThat(sim.sink.latest(implied).orElseThrow().phase()).isEqualTo("Succeeded"));
    assertThat(implied)
        .matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
        .startsWith("rabbitmq-cluster-operator-stable-2-x-");
    assertThat(sim.cluster.agent().statuses().keySet()).allMatch(SubscriptionNames::isDnsLabel);
  }

  @Test
  void appliesTheSubscriptionConfigAndOlmValuesToTheOperatorDeployment() throws Exception {
    com.fasterxml.jackson.databind.JsonNode config =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(
                "{\"env\":[{\"name\":\"LOG_LEVEL\",\"value\":\"debug\"}],\"nodeSelector\":{\"pool\":\"ops\"}}");
    SubscriptionToReconcile base = etcd("0.9.2");
    sim.desire(
        new SubscriptionToReconcile(
            base.name(),
            base.catalog(),
            null,
            base.packageName(),
            base.channel(),
            base.namespace(),
            List.of(),
            null,
            null,
            "0.9.2",
            config,
            false,
            1,
            null));
    awaitSucceeded("etcd", "etcdoperator.v0.9.2");
    JsonNode deployment =
        sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator").orElseThrow();
    JsonNode pod = deployment.path("spec").path("template");
    assertThat(pod.path("spec").path("nodeSelector").path("pool").asText()).isEqualTo("ops");
    assertThat(pod.path("spec").path("containers").get(0).path("env").toString())
        .contains("LOG_LEVEL")
        .contains("debug");
    assertThat(pod.path("metadata").path("annotations").path("olm.targetNamespaces").asText())
        .isEqualTo("etcd-ns");
  }

  private void awaitSucceeded(String sub, String bundle) {
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest(sub).orElseThrow();
              assertThat(s.installedBundle()).as(s.toString()).isEqualTo(bundle);
              assertThat(s.phase()).as(s.toString()).isEqualTo("Succeeded");
            });
  }

  private List<JsonNode> rolesOf(String bundle) {
    return sim.list("rbac.authorization.k8s.io/v1", "Role").stream()
        .filter(r -> r.path("metadata").path("name").asText().startsWith(bundle))
        .toList();
  }
}
