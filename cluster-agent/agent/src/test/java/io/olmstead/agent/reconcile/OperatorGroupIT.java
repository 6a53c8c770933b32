package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import io.olmstead.olmcore.installplan.ProvidedApiClusterRoles;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Install modes and the RBAC OLM writes for them, read back through the (mock) Kubernetes API: real
 * bundles of {@code ../shared/catalogs} (skipped with a message when absent).
 */
class OperatorGroupIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String RBAC = "rbac.authorization.k8s.io/v1";
  private SimFixture sim;

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  private static SubscriptionToReconcile sub(
      String name, String pkg, String channel, String ns, List<String> targets) {
    return new SubscriptionToReconcile(
        name,
        SharedCatalogs.CATALOG,
        null,
        pkg,
        channel,
        ns,
        targets,
        SubscriptionToReconcile.Approval.AUTOMATIC,
        null,
        null,
        null,
        false,
        1,
        null);
  }

  @Test
  void anAllNamespacesOnlyOperatorWithoutTargetsSucceedsWithItsPermissionsLiftedToTheCluster()
      throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(false);
    sim.desire(sub("dns", "dns-operator", "stable", "dns-ns", List.of()));
    awaitSucceeded("dns", "dns-operator.v0.6.0");

    JsonNode pod = deploymentOf("dns-ns", "dns-operator.v0.6.0").path("spec").path("template");
    assertThat(pod.at("/metadata/annotations/olm.targetNamespaces").asText("absent")).isEmpty();
    JsonNode role =
        ownedBy("Role", "dns").stream()
            .filter(r -> r.at("/metadata/name").asText().startsWith("dns-operator.v0.6.0-"))
            .findFirst()
            .orElseThrow();
    String name = role.at("/metadata/name").asText();
    JsonNode lifted = sim.get(RBAC, "ClusterRole", null, name).orElseThrow();
    assertThat(lifted.path("rules").toString()).contains("\"namespaces\"");
    assertThat(
            sim.get(RBAC, "ClusterRoleBinding", null, name)
                .orElseThrow()
                .at("/roleRef/kind")
                .asText())
        .isEqualTo("ClusterRole");
    assertThat(sim.get(RBAC, "Role", "dns-ns", "dns-operator.v0.6.0")).isPresent();
    assertThat(sim.get(RBAC, "RoleBinding", "dns-ns", "dns-operator.v0.6.0")).isPresent();
    // the aggregated roles of the operator's CRDs are shared by every install of the package, like
    // the CRDs
    List<String> aggregated = providedApiRoles();
    assertThat(aggregated)
        .anyMatch(n -> n.endsWith("-admin"))
        .anyMatch(n -> n.endsWith("-crdview"));

    sim.desire();
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              for (String kind :
                  List.of("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding")) {
                assertThat(ownedBy(kind, "dns")).as(kind).isEmpty();
              }
              assertThat(sim.get(RBAC, "ClusterRole", null, name)).isEmpty();
              assertThat(providedApiRoles())
                  .as("the last install of the package takes its aggregated roles")
                  .isEmpty();
            });
  }

  private List<String> providedApiRoles() {
    return sim.list(RBAC, "ClusterRole").stream()
        .filter(ProvidedApiClusterRoles::isProvidedApiRole)
        .map(r -> r.at("/metadata/name").asText())
        .toList();
  }

  @Test
  void aMultiNamespaceOperatorGetsTenantRolesInEachTargetAndLosesThemWhenTheTargetGoes()
      throws Exception {
    sim = new SimFixture(SharedCatalogs.bundledPlus("strimzi-kafka-operator", "strimzi-1.2.x"));
    sim.namespaces("team-a", "team-b");
    sim.desire(
        sub(
            "strimzi",
            "strimzi-kafka-operator",
            "strimzi-1.2.x",
            "kafka",
            List.of("team-a", "team-b")));
    awaitSucceeded("strimzi", "strimzi-cluster-operator.v1.2.0");

    JsonNode pod =
        deploymentOf("kafka", "strimzi-cluster-operator.v1.2.0").path("spec").path("template");
    assertThat(pod.at("/metadata/annotations/olm.targetNamespaces").asText())
        .isEqualTo("team-a,team-b");
    assertThat(namespacesOf("Role")).contains("kafka", "team-a", "team-b");
    assertThat(namespacesOf("RoleBinding")).contains("kafka", "team-a", "team-b");

    sim.desire(
        sub("strimzi", "strimzi-kafka-operator", "strimzi-1.2.x", "kafka", List.of("team-a")));
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              assertThat(namespacesOf("Role")).contains("kafka", "team-a").doesNotContain("team-b");
              assertThat(namespacesOf("RoleBinding")).doesNotContain("team-b");
              assertThat(
                      deploymentOf("kafka", "strimzi-cluster-operator.v1.2.0")
                          .at("/spec/template/metadata/annotations/olm.targetNamespaces")
                          .asText())
                  .isEqualTo("team-a");
            });
  }

  @Test
  void aTargetNamespaceThatDoesNotExistKeepsTheInstallPendingNamingItUntilItIsCreated()
      throws Exception {
    sim = new SimFixture(SharedCatalogs.bundledPlus("strimzi-kafka-operator", "strimzi-1.2.x"));
    sim.namespaces("team-a");
    sim.desire(
        sub(
            "strimzi",
            "strimzi-kafka-operator",
            "strimzi-1.2.x",
            "kafka",
            List.of("team-a", "team-c")));

    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("strimzi").orElseThrow();
              assertThat(s.phase()).as(s.toString()).isEqualTo("Pending");
              assertThat(s.reason()).isEqualTo("RequirementsNotMet");
              assertThat(s.message()).contains("target namespace team-c does not exist");
            });
    assertThat(namespacesOf("Role")).doesNotContain("team-c", "team-a");
    assertThat(sim.list("apps/v1", "Deployment")).as("nothing written while waiting").isEmpty();

    sim.namespaces("team-c");
    awaitSucceeded("strimzi", "strimzi-cluster-operator.v1.2.0");
    assertThat(namespacesOf("Role")).contains("kafka", "team-a", "team-c");
  }

  @Test
  void aDependencyWatchesTheTargetsOfTheOperatorThatNeedsIt() throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(false);
    sim.namespaces("team-a", "team-b");
    sim.desire(
        sub(
            "topology",
            "rabbitmq-messaging-topology-operator",
            "stable",
            "rabbitmq",
            List.of("team-a", "team-b")));
    String dep =
        SubscriptionNames.implied("rabbitmq-cluster-operator", "stable", SharedCatalogs.CATALOG);
    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> assertThat(sim.sink.latest(dep).orElseThrow().phase()).isEqualTo("Succeeded"));
    // a later pass rebuilds the dependency from what is installed: it must keep the namespace's
    // targets
    sim.desire(
        sub(
                "topology",
                "rabbitmq-messaging-topology-operator",
                "stable",
                "rabbitmq",
                List.of("team-a", "team-b"))
            .withMaxVersion(null));

    await()
        .atMost(WAIT)
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              JsonNode operator =
                  sim.get("apps/v1", "Deployment", "rabbitmq", "rabbitmq-cluster-operator")
                      .orElseThrow();
              assertThat(
                      operator
                          .at("/spec/template/metadata/annotations/olm.targetNamespaces")
                          .asText())
                  .isEqualTo("team-a,team-b");
              assertThat(namespacesOf("Role")).contains("team-a", "team-b");
            });
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

  private JsonNode deploymentOf(String ns, String bundle) {
    return sim.list("apps/v1", "Deployment").stream()
        .filter(d -> ns.equals(d.at("/metadata/namespace").asText()))
        .filter(d -> bundle.equals(sim.label(d, ManagedLabels.BUNDLE)))
        .findFirst()
        .orElseThrow();
  }

  private List<JsonNode> ownedBy(String kind, String subscription) {
    return sim.list(RBAC, kind).stream()
        .filter(
            o -> ManagedLabels.value(subscription).equals(sim.label(o, ManagedLabels.SUBSCRIPTION)))
        .toList();
  }

  private List<String> namespacesOf(String kind) {
    return sim.list(RBAC, kind).stream()
        .filter(
            o ->
                o.at("/metadata/name").asText().startsWith("strimzi-cluster-operator")
                    || o.at("/metadata/name").asText().startsWith("rabbitmq-cluster-operator"))
        .map(o -> o.at("/metadata/namespace").asText())
        .distinct()
        .toList();
  }
}
