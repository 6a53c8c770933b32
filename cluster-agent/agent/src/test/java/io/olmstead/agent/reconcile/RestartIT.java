package io.olmstead.agent.reconcile;

import static io.olmstead.agent.testing.SimFixture.etcd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.testing.RecordingSink;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An agent restarted in the middle of an upgrade picks it up from the cluster and finishes it
 * cleanly.
 */
class RestartIT {
  private SimFixture sim;
  private AgentReconciler second;

  @AfterEach
  void stop() {
    if (second != null) {
      second.close();
    }
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void anAgentRestartedMidUpgradeFinishesItWithoutDuplicateObjects() throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(false, Duration.ofSeconds(1), Duration.ofMillis(1500));
    sim.desire(etcd("0.9.2"));
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(
            () -> assertThat(sim.sink.latest("etcd").orElseThrow().phase()).isEqualTo("Succeeded"));
    sim.desire(etcd("0.9.4"));
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.targetVersion()).isEqualTo("0.9.4");
              assertThat(s.phase()).isIn("Installing", "InstallReady");
            });
    sim.cluster.agent().close();

    RecordingSink after = new RecordingSink();
    second =
        new AgentReconciler(
            "sim-01",
            sim.cluster.client(),
            SharedCatalogs.provider(),
            after,
            new ReconcilerOptions(2, Duration.ofSeconds(1), true));
    second.start();
    // a pass (the start's or a resync's) with no desired state yet must not touch anything
    SimFixture.awaitPasses(second, "etcd-ns", 1);
    assertThat(names("operators.coreos.com/v2", "OperatorCondition")).hasSize(2);
    second.setDesired(1, List.of(etcd("0.9.4")));
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = after.latest("etcd").orElseThrow();
              assertThat(s.installedBundle()).isEqualTo("etcdoperator.v0.9.4");
              assertThat(s.phase()).isEqualTo("Succeeded");
              assertThat(names("operators.coreos.com/v2", "OperatorCondition"))
                  .containsExactly("etcdoperator.v0.9.4");
            });
    // The restarted agent continued the upgrade: never a fresh install, never heading anywhere but
    // 0.9.4.
    assertThat(after.history("etcd"))
        .allSatisfy(
            s -> {
              assertThat(s.installedBundle()).isIn("etcdoperator.v0.9.2", "etcdoperator.v0.9.4");
              assertThat(s.targetVersion()).isEqualTo("0.9.4");
            });
    assertThat(names("apps/v1", "Deployment")).containsExactly("etcd-operator");
    assertThat(names("v1", "ServiceAccount")).containsExactly("etcd-operator");
    // its permissions' Role and the Role on its own OperatorCondition, nothing of 0.9.2
    assertThat(names("rbac.authorization.k8s.io/v1", "Role"))
        .allMatch(n -> n.startsWith("etcdoperator.v0.9.4"))
        .hasSize(2)
        .contains("etcdoperator.v0.9.4");
  }

  private List<String> names(String apiVersion, String kind) {
    return sim.list(apiVersion, kind).stream()
        .map(o -> o.path("metadata").path("name").asText())
        .toList();
  }
}
