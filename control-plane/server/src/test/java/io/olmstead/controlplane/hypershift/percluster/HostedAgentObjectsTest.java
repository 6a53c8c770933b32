package io.olmstead.controlplane.hypershift.percluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.olmstead.controlplane.config.HostedAgentSettings;
import io.olmstead.controlplane.hypershift.percluster.HostedAgentObjects.GuestKubeconfig;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HostedAgentObjectsTest {
  private static final HostedAgentSettings SETTINGS =
      new HostedAgentSettings(
          Optional.of("ghcr.io/olmstead/agent:1.0.0"),
          "http://olmstead-control-plane.olmstead-system.svc",
          "olmstead-system");
  private static final String CREDENTIAL = "olm_cluster_secret-value";
  private static final String SERVICE_NETWORK_KUBECONFIG =
      "apiVersion: v1\nkind: Config\n# token: first\n";
  private static final String ROTATED_KUBECONFIG =
      "apiVersion: v1\nkind: Config\n# token: second\n";

  private static List<HasMetadata> objects(GuestKubeconfig guest) {
    return HostedAgentObjects.of(
        "clusters-example", "clusters-example", CREDENTIAL, guest, SETTINGS);
  }

  private static <T> T one(List<HasMetadata> objects, Class<T> kind) {
    return objects.stream().filter(kind::isInstance).map(kind::cast).findFirst().orElseThrow();
  }

  @Test
  void fourObjectsInTheHostedControlPlaneNamespaceAllLabelledAsThatClustersAgent() {
    List<HasMetadata> objects = objects(GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG));
    assertThat(objects)
        .extracting(HasMetadata::getKind)
        .containsExactly("ServiceAccount", "Secret", "Deployment", "NetworkPolicy");
    assertThat(objects)
        .allSatisfy(
            o -> {
              assertThat(o.getMetadata().getNamespace()).isEqualTo("clusters-example");
              assertThat(o.getMetadata().getName()).isEqualTo("olmstead-agent");
              assertThat(o.getMetadata().getLabels())
                  .containsEntry("olmstead.io/cluster", "clusters-example")
                  .containsEntry("app.kubernetes.io/name", "olmstead-agent")
                  .containsEntry("app.kubernetes.io/managed-by", "olmstead-control-plane");
            });
    assertThat(one(objects, ServiceAccount.class).getAutomountServiceAccountToken()).isFalse();
  }

  @Test
  void
      theSecretHoldsTheCredentialAndTheDeploymentRunsTheAgentInHostedModeOnTheServiceNetworkKubeconfig() {
    List<HasMetadata> objects = objects(GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG));
    Secret secret = one(objects, Secret.class);
    assertThat(secret.getData()).containsOnlyKeys("credential");
    assertThat(
            new String(
                Base64.getDecoder().decode(secret.getData().get("credential")),
                StandardCharsets.UTF_8))
        .isEqualTo(CREDENTIAL);

    Deployment deployment = one(objects, Deployment.class);
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
    assertThat(deployment.getSpec().getStrategy().getType()).isEqualTo("Recreate");
    var pod = deployment.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo("olmstead-agent");
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    Container agent = pod.getContainers().get(0);
    assertThat(agent.getImage()).isEqualTo("ghcr.io/olmstead/agent:1.0.0");
    assertThat(agent.getArgs()).containsExactly("run");
    Map<String, String> env =
        agent.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    assertThat(env)
        .containsEntry("OLMSTEAD_AGENT_MODE", "hosted")
        .containsEntry("OLMSTEAD_CLUSTER_NAME", "clusters-example")
        .containsEntry(
            "OLMSTEAD_CONTROL_PLANE_URL", "http://olmstead-control-plane.olmstead-system.svc")
        .containsEntry("OLMSTEAD_KUBECONFIG", "/etc/olmstead/guest/kubeconfig")
        .containsEntry("OLMSTEAD_CREDENTIAL_FILE", "/var/run/olmstead/credential")
        .containsEntry("OLMSTEAD_AGENT_HEALTH_PORT", "8081");
    // the credential reaches the pod as a file only, never as an environment value
    assertThat(env.values()).noneMatch(v -> v.contains(CREDENTIAL));
    assertThat(agent.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(agent.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(agent.getLivenessProbe().getTimeoutSeconds()).isEqualTo(2);
    assertThat(agent.getPorts().get(0).getContainerPort()).isEqualTo(8081);
    assertThat(agent.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    Map<String, String> secrets =
        pod.getVolumes().stream()
            .filter(v -> v.getSecret() != null)
            .collect(Collectors.toMap(Volume::getName, v -> v.getSecret().getSecretName()));
    assertThat(secrets)
        .containsEntry("credential", "olmstead-agent")
        .containsEntry("guest-kubeconfig", "service-network-admin-kubeconfig");
  }

  @Test
  void
      withoutTheServiceNetworkSecretTheAdminKubeconfigIsCopiedIntoTheAgentsSecretAndEgressTo6443IsOpened() {
    List<HasMetadata> objects = objects(GuestKubeconfig.copy("apiVersion: v1\nkind: Config\n"));
    assertThat(one(objects, Secret.class).getData()).containsKeys("credential", "kubeconfig");
    assertThat(one(objects, Deployment.class).getSpec().getTemplate().getSpec().getVolumes())
        .filteredOn(v -> v.getName().equals("guest-kubeconfig"))
        .singleElement()
        .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("olmstead-agent"));
    assertThat(one(objects, NetworkPolicy.class).getSpec().getEgress())
        .anySatisfy(rule -> assertThat(rule.getTo()).isNullOrEmpty());
  }

  @Test
  void theNetworkPolicyAdmitsOnlyTheHealthPortAndReachesOnlyTheControlPlaneTheGuestApiAndDns() {
    NetworkPolicy policy =
        one(
            objects(GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG)),
            NetworkPolicy.class);
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .containsEntry("olmstead.io/cluster", "clusters-example");
    assertThat(policy.getSpec().getIngress())
        .singleElement()
        .satisfies(
            rule -> {
              assertThat(rule.getFrom()).isNullOrEmpty();
              assertThat(rule.getPorts())
                  .singleElement()
                  .satisfies(p -> assertThat(p.getPort().getIntVal()).isEqualTo(8081));
            });
    List<NetworkPolicyEgressRule> egress = policy.getSpec().getEgress();
    assertThat(egress).hasSize(3).allSatisfy(rule -> assertThat(rule.getTo()).isNotEmpty());
    assertThat(egress.get(0).getTo().get(0).getNamespaceSelector().getMatchLabels())
        .containsEntry("kubernetes.io/metadata.name", "olmstead-system");
    assertThat(egress.get(1).getTo().get(0).getPodSelector().getMatchLabels())
        .containsEntry("app", "kube-apiserver");
    assertThat(egress.get(1).getPorts().get(0).getPort().getIntVal()).isEqualTo(6443);
    assertThat(egress.get(2).getPorts())
        .extracting(p -> p.getPort().getIntVal())
        .containsOnly(53, 5353);
  }

  @Test
  void
      aRotatedCredentialOrKubeconfigChangesThePodTemplateSoThePodRollsAndTheHashHidesTheCredential() {
    String before = annotation(objects(GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG)));
    assertThat(annotation(objects(GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG))))
        .isEqualTo(before);
    assertThat(
            annotation(
                HostedAgentObjects.of(
                    "clusters-example",
                    "clusters-example",
                    "olm_cluster_other",
                    GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG),
                    SETTINGS)))
        .isNotEqualTo(before);
    assertThat(annotation(objects(GuestKubeconfig.copy("a"))))
        .isNotEqualTo(annotation(objects(GuestKubeconfig.copy("b"))));
    assertThat(before).hasSize(16).doesNotContain(CREDENTIAL);
  }

  /** Table: what the pod template hash changes with, and what it does not. */
  @Test
  void thePodTemplateHashChangesWhenHypershiftRotatesEitherKubeconfigAndOnlyThen() {
    record Row(String what, String credential, GuestKubeconfig guest, boolean rolls) {}
    GuestKubeconfig base = GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG);
    List<Row> rows =
        List.of(
            new Row(
                "nothing rotated",
                CREDENTIAL,
                GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG),
                false),
            new Row(
                "service-network kubeconfig rotated",
                CREDENTIAL,
                GuestKubeconfig.serviceNetwork(ROTATED_KUBECONFIG),
                true),
            new Row("credential rotated", "olm_cluster_other", base, true),
            new Row(
                "switched to the admin kubeconfig copy (same content)",
                CREDENTIAL,
                GuestKubeconfig.copy(SERVICE_NETWORK_KUBECONFIG),
                true));
    String before = HostedAgentObjects.hash(CREDENTIAL, base);
    for (Row row : rows) {
      assertThat(!HostedAgentObjects.hash(row.credential(), row.guest()).equals(before))
          .as(row.what())
          .isEqualTo(row.rolls());
    }
    // the copied admin kubeconfig: the same content keeps the hash, rotated content changes it
    GuestKubeconfig copy = GuestKubeconfig.copy(SERVICE_NETWORK_KUBECONFIG);
    assertThat(
            HostedAgentObjects.hash(CREDENTIAL, GuestKubeconfig.copy(SERVICE_NETWORK_KUBECONFIG)))
        .isEqualTo(HostedAgentObjects.hash(CREDENTIAL, copy));
    assertThat(HostedAgentObjects.hash(CREDENTIAL, GuestKubeconfig.copy(ROTATED_KUBECONFIG)))
        .isNotEqualTo(HostedAgentObjects.hash(CREDENTIAL, copy));
  }

  @Test
  void thePodTemplateCarriesNeitherKubeconfigNorItsRecordPrintsIt() {
    Deployment deployment =
        one(objects(GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG)), Deployment.class);
    assertThat(deployment.getSpec().getTemplate().toString()).doesNotContain("token: first");
    assertThat(GuestKubeconfig.copy(SERVICE_NETWORK_KUBECONFIG).toString())
        .doesNotContain("token: first");
  }

  /** Table: whether the running Deployment is replaced (a rolled pod) or left as it is. */
  @Test
  void aRunningDeploymentIsReplacedWhenItsHashOrImageDiffersOrItHasNone() {
    Deployment desired =
        one(objects(GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG)), Deployment.class);
    Deployment rotated =
        one(objects(GuestKubeconfig.serviceNetwork(ROTATED_KUBECONFIG)), Deployment.class);
    Deployment otherImage =
        one(
            HostedAgentObjects.of(
                "clusters-example",
                "clusters-example",
                CREDENTIAL,
                GuestKubeconfig.serviceNetwork(SERVICE_NETWORK_KUBECONFIG),
                new HostedAgentSettings(
                    Optional.of("ghcr.io/olmstead/agent:1.0.1"),
                    SETTINGS.controlPlaneUrl(),
                    "olmstead-system")),
            Deployment.class);
    Deployment unannotated =
        new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder(desired)
            .editSpec()
            .editTemplate()
            .editMetadata()
            .withAnnotations(null)
            .endMetadata()
            .endTemplate()
            .endSpec()
            .build();
    record Row(String what, Deployment running, boolean upToDate) {}
    List<Row> rows =
        List.of(
            new Row("the same", desired, true),
            new Row("none running", null, false),
            new Row("kubeconfig rotated since", rotated, false),
            new Row("another image", otherImage, false),
            new Row("no hash annotation", unannotated, false),
            new Row("no spec", new io.fabric8.kubernetes.api.model.apps.Deployment(), false));
    for (Row row : rows) {
      assertThat(HostedAgentObjects.upToDate(row.running(), desired))
          .as(row.what())
          .isEqualTo(row.upToDate());
    }
  }

  private static String annotation(List<HasMetadata> objects) {
    return one(objects, Deployment.class)
        .getSpec()
        .getTemplate()
        .getMetadata()
        .getAnnotations()
        .get(HostedAgentObjects.HASH_ANNOTATION);
  }
}
