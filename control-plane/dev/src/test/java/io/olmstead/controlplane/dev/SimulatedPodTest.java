package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.olmstead.controlplane.config.HostedAgentSettings;
import io.olmstead.controlplane.hypershift.percluster.HostedAgentObjects;
import io.olmstead.controlplane.hypershift.percluster.HostedAgentObjects.GuestKubeconfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the simulated kubelet makes of the pod template the control plane writes (and of ones it
 * must refuse).
 */
class SimulatedPodTest {
  private static final Path ROOT = Path.of("/tmp/pod");
  private static final HostedAgentSettings SETTINGS =
      new HostedAgentSettings(
          Optional.of("example.com/agent:1"), "http://cp.example.com:8080", "olmstead-system");

  private static Deployment written() {
    return (Deployment)
        HostedAgentObjects.of(
                "clusters-alpha",
                "clusters-alpha",
                "olm_cluster_secret",
                GuestKubeconfig.copy("kubeconfig-content"),
                SETTINGS)
            .stream()
            .filter(Deployment.class::isInstance)
            .findFirst()
            .orElseThrow();
  }

  private static Secret agentSecret() {
    return new SecretBuilder()
        .withNewMetadata()
        .withName("olmstead-agent")
        .endMetadata()
        .addToData("credential", b64("olm_cluster_secret"))
        .addToData("kubeconfig", b64("kubeconfig-content"))
        .addToData("other", b64("not mounted"))
        .build();
  }

  @Test
  void theControlPlanesDeploymentBecomesFilesAndAnEnvironmentNamingThem() throws Exception {
    SimulatedPod pod =
        SimulatedPod.of(
            written(), name -> "olmstead-agent".equals(name) ? agentSecret() : null, ROOT);
    assertThat(pod.files())
        .containsOnlyKeys(
            ROOT.resolve("credential/credential"), ROOT.resolve("guest-kubeconfig/kubeconfig"));
    assertThat(
            new String(
                pod.files().get(ROOT.resolve("credential/credential")), StandardCharsets.UTF_8))
        .isEqualTo("olm_cluster_secret");
    assertThat(pod.env())
        .containsEntry("OLMSTEAD_AGENT_MODE", "hosted")
        .containsEntry("OLMSTEAD_CLUSTER_NAME", "clusters-alpha")
        .containsEntry("OLMSTEAD_CONTROL_PLANE_URL", "http://cp.example.com:8080")
        .containsEntry("OLMSTEAD_CREDENTIAL_FILE", ROOT.resolve("credential/credential").toString())
        .containsEntry(
            "OLMSTEAD_KUBECONFIG", ROOT.resolve("guest-kubeconfig/kubeconfig").toString())
        .containsEntry("OLMSTEAD_AGENT_HEALTH_PORT", "0");
    assertThat(pod.directories()).contains(ROOT.resolve("tmp"));
    assertThat(pod.toString())
        .doesNotContain("olm_cluster_secret")
        .doesNotContain("kubeconfig-content");
  }

  @Test
  void argsOtherThanRunAreRefusedNamingTheSetting() {
    Deployment pool =
        new DeploymentBuilder(written())
            .editSpec()
            .editTemplate()
            .editSpec()
            .editFirstContainer()
            .withArgs("pool")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    assertThatThrownBy(() -> SimulatedPod.of(pool, name -> agentSecret(), ROOT))
        .isInstanceOf(SimulatedPod.Refused.class)
        .hasMessageContaining("args")
        .hasMessageContaining("[pool]");
  }

  @Test
  void aMissingSecretOrKeyWaitsAndAnItemPathLeavingTheVolumeIsRefused() {
    assertThatThrownBy(() -> SimulatedPod.of(written(), name -> null, ROOT))
        .isInstanceOf(SimulatedPod.Waiting.class)
        .hasMessageContaining("secret olmstead-agent");
    Secret noKubeconfig =
        new SecretBuilder(agentSecret()).withData(Map.of("credential", b64("x"))).build();
    assertThatThrownBy(() -> SimulatedPod.of(written(), name -> noKubeconfig, ROOT))
        .isInstanceOf(SimulatedPod.Waiting.class)
        .hasMessageContaining("no key kubeconfig");
    Deployment escaping =
        new DeploymentBuilder(written())
            .editSpec()
            .editTemplate()
            .editSpec()
            .editFirstVolume()
            .editSecret()
            .editFirstItem()
            .withPath("../../etc/passwd")
            .endItem()
            .endSecret()
            .endVolume()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    assertThatThrownBy(() -> SimulatedPod.of(escaping, name -> agentSecret(), ROOT))
        .isInstanceOf(SimulatedPod.Refused.class)
        .hasMessageContaining("leaves the volume");
  }

  @Test
  void envFromASecretKeyIsResolvedAndOtherSourcesAreRefused() throws Exception {
    Deployment fromSecret =
        new DeploymentBuilder(written())
            .editSpec()
            .editTemplate()
            .editSpec()
            .editFirstContainer()
            .addNewEnv()
            .withName("OLMSTEAD_ENROLLMENT_TOKEN")
            .withNewValueFrom()
            .withNewSecretKeyRef()
            .withName("olmstead-agent")
            .withKey("other")
            .endSecretKeyRef()
            .endValueFrom()
            .endEnv()
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    assertThat(SimulatedPod.of(fromSecret, name -> agentSecret(), ROOT).env())
        .containsEntry("OLMSTEAD_ENROLLMENT_TOKEN", "not mounted");
    Deployment fromField =
        new DeploymentBuilder(written())
            .editSpec()
            .editTemplate()
            .editSpec()
            .editFirstContainer()
            .addNewEnv()
            .withName("POD_NAME")
            .withNewValueFrom()
            .withNewFieldRef()
            .withFieldPath("metadata.name")
            .endFieldRef()
            .endValueFrom()
            .endEnv()
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    assertThatThrownBy(() -> SimulatedPod.of(fromField, name -> agentSecret(), ROOT))
        .isInstanceOf(SimulatedPod.Refused.class)
        .hasMessageContaining("env POD_NAME");
  }

  /**
   * The agent runs in the dev process: never with the developer's kubeconfig or a file of this
   * machine.
   */
  @Test
  void theAgentMustBeHostedWithItsKubeconfigAndCredentialInThePodsVolumes() {
    Deployment inGuest = withEnv("OLMSTEAD_AGENT_MODE", null);
    assertThatThrownBy(() -> SimulatedPod.of(inGuest, name -> agentSecret(), ROOT))
        .isInstanceOf(SimulatedPod.Refused.class)
        .hasMessageContaining("OLMSTEAD_AGENT_MODE must be hosted");
    Deployment ownKubeconfig = withEnv("OLMSTEAD_KUBECONFIG", "/home/dev/.kube/config");
    assertThatThrownBy(() -> SimulatedPod.of(ownKubeconfig, name -> agentSecret(), ROOT))
        .isInstanceOf(SimulatedPod.Refused.class)
        .hasMessageContaining("OLMSTEAD_KUBECONFIG must name a file");
    String mounted =
        written().getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
            .filter(e -> e.getName().equals("OLMSTEAD_CREDENTIAL_FILE"))
            .findFirst()
            .orElseThrow()
            .getValue();
    Deployment climbing =
        withEnv("OLMSTEAD_CREDENTIAL_FILE", mounted + "/../../../../../etc/passwd");
    assertThatThrownBy(() -> SimulatedPod.of(climbing, name -> agentSecret(), ROOT))
        .isInstanceOf(SimulatedPod.Refused.class)
        .hasMessageContaining("OLMSTEAD_CREDENTIAL_FILE must name a file");
  }

  /** The control plane's Deployment with {@code name} set to {@code value} (removed when null). */
  private static Deployment withEnv(String name, String value) {
    Deployment d =
        new DeploymentBuilder(written())
            .editSpec()
            .editTemplate()
            .editSpec()
            .editFirstContainer()
            .removeMatchingFromEnv(e -> name.equals(e.getName()))
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    return value == null
        ? d
        : new DeploymentBuilder(d)
            .editSpec()
            .editTemplate()
            .editSpec()
            .editFirstContainer()
            .addNewEnv()
            .withName(name)
            .withValue(value)
            .endEnv()
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
  }

  private static String b64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
