package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dev --simulate-hypershift} connects simulated hosted agents of its own, so it refuses, before anything starts
 * and with a line naming the flag and the variable, an environment that would give the hosted clusters other agents.
 */
class DevSimulateHypershiftEnvTest {
  @TempDir
  Path dir;

  @Test
  void perClusterHostedAgentsAreRefusedWithASimulatedManagementCluster() throws Exception {
    Path crds = crds();
    // a bad --admin-token fails the start right after the hypershift checks, so nothing starts either way
    MainTest.Outcome outcome = MainTest.run(Map.of("OLMSTEAD_HYPERSHIFT_AGENTS", "per-cluster",
            "OLMSTEAD_HOSTED_AGENT_IMAGE", "example.invalid/agent:dev"), "dev", "--simulate-hypershift", "1",
        "--hypershift-crds", crds.toString(), "--data-dir", dir.resolve("data").toString(), "--admin-token", "short");

    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err()).contains("--simulate-hypershift").contains("OLMSTEAD_HYPERSHIFT_AGENTS=per-cluster")
        .doesNotContain("--admin-token");
    assertThat(dir.resolve("data")).doesNotExist();
  }

  @Test
  void theDefaultPoolModeIsAccepted() throws Exception {
    Path crds = crds();
    MainTest.Outcome outcome = MainTest.run(Map.of("OLMSTEAD_HYPERSHIFT_AGENTS", "pool"), "dev",
        "--simulate-hypershift", "1", "--hypershift-crds", crds.toString(), "--data-dir",
        dir.resolve("data").toString(), "--admin-token", "short");

    // it gets as far as the admin token check: the hypershift settings passed
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err()).contains("--admin-token").doesNotContain("--simulate-hypershift");
  }

  /** --hypershift-crds only checks that the two files are there before anything starts. */
  private Path crds() throws Exception {
    Path crds = Files.createDirectories(dir.resolve("crds"));
    for (String file : new String[] {"hostedclusters", "nodepools"}) {
      Files.writeString(crds.resolve(file + ".hypershift.openshift.io.crd.yaml"), "kind: CustomResourceDefinition");
    }
    return crds;
  }
}
