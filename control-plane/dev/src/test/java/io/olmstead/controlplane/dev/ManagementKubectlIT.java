package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.olmstead.controlplane.hypershift.HypershiftFixtures;
import io.olmstead.controlplane.testsupport.Kubectl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulated management cluster of {@code dev --simulate-hypershift} answers the installed
 * {@code kubectl}: discovery, then get, create, patch and delete of HostedClusters, with the
 * simulated operator bringing a created one up and letting a deleted one go. Skipped, saying so,
 * without kubectl or {@code ../shared/hypershift}.
 */
class ManagementKubectlIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static Path dir;
  private static DevHypershift sim;

  @BeforeAll
  static void start() throws IOException {
    assumeTrue(
        Kubectl.path() != null,
        "kubectl is not installed (not on PATH): ManagementKubectlIT skipped");
    Path crds = HypershiftFixtures.dir();
    dir = Files.createTempDirectory("mgmt-kubectl");
    sim = DevHypershift.start(dir, crds, 1, Duration.ofMillis(500), Duration.ofMillis(200));
  }

  @AfterAll
  static void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void kubectlGetsCreatesPatchesAndDeletesHostedClusters() throws Exception {
    assertThat(sim.kubeconfig()).isEqualTo(dir.resolve("management.kubeconfig").toAbsolutePath());
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        run(
                            "get",
                            "hostedclusters",
                            "-n",
                            "clusters",
                            "-o",
                            "jsonpath={.items[*].status.version.history[0].state}"))
                    .isEqualTo("Completed"));
    assertThat(run("get", "hostedclusters", "-A")).contains("hc-01");
    assertThat(
            run(
                "get",
                "hc",
                "hc-01",
                "-n",
                "clusters",
                "-o",
                "jsonpath={.status.conditions[?(@.type==\"Available\")].reason}"))
        .isEqualTo("AsExpected");

    Path file = dir.resolve("hc.yaml");
    Files.writeString(
        file,
        sim.management()
            .client()
            .getKubernetesSerialization()
            .asYaml(
                SimulatedManagementCluster.hostedCluster(
                    "made-by-kubectl",
                    java.util.Map.of("team", "a"),
                    null,
                    "quay.io/openshift-release-dev/ocp-release:4.18.3-x86_64")));
    assertThat(run("create", "-f", file.toString())).contains("made-by-kubectl");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(
                      run(
                          "get",
                          "hostedcluster",
                          "made-by-kubectl",
                          "-n",
                          "clusters",
                          "-o",
                          "jsonpath={.status.version.history[0].version}/{.status.version.history[0].state}"))
                  .isEqualTo("4.18.3/Completed");
              assertThat(
                      run(
                          "get",
                          "hostedcluster",
                          "made-by-kubectl",
                          "-n",
                          "clusters",
                          "-o",
                          "jsonpath={.spec.clusterID}"))
                  .isNotBlank();
            });
    assertThat(
            run(
                "get",
                "secret",
                "made-by-kubectl-admin-kubeconfig",
                "-n",
                "clusters",
                "-o",
                "name"))
        .contains("made-by-kubectl-admin-kubeconfig");

    run(
        "patch",
        "hostedcluster",
        "made-by-kubectl",
        "-n",
        "clusters",
        "--type=merge",
        "-p",
        "{\"spec\":{\"release\":{\"image\":\"quay.io/openshift-release-dev/ocp-release:4.18.5-x86_64\"}}}");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        run(
                            "get",
                            "hostedcluster",
                            "made-by-kubectl",
                            "-n",
                            "clusters",
                            "-o",
                            "jsonpath={.status.version.history[*].version}"))
                    .isEqualTo("4.18.5 4.18.3"));

    assertThat(sim.operator().guests()).isEqualTo(2);
    assertThat(run("delete", "hostedcluster", "made-by-kubectl", "-n", "clusters", "--timeout=30s"))
        .contains("deleted");
    GenericKubernetesResource gone =
        sim.management()
            .client()
            .genericKubernetesResources(SimulatedManagementCluster.HOSTED_CLUSTERS)
            .inNamespace("clusters")
            .withName("made-by-kubectl")
            .get();
    assertThat(gone).isNull();
    assertThat(sim.operator().guests()).isEqualTo(1);
    assertThat(run("get", "secrets", "-n", "clusters", "-o", "name"))
        .doesNotContain("made-by-kubectl");
  }

  private static String run(String... args) throws IOException, InterruptedException {
    return Kubectl.run(sim.kubeconfig(), args);
  }
}
