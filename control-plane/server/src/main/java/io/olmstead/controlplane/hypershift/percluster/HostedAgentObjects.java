package io.olmstead.controlplane.hypershift.percluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRuleBuilder;
import io.olmstead.controlplane.config.HostedAgentSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one hosted cluster's agent is, in its hosted control plane namespace (pure: no I/O). Four
 * objects, all named {@value #NAME} and labelled {@link #LABELS} plus the cluster: a ServiceAccount
 * with no API token mounted (the agent talks to the guest API through the guest kubeconfig, never
 * to the management cluster), a Secret with the cluster's agent credential (and, when the namespace
 * has no {@value #SERVICE_NETWORK} secret, a copy of the HostedCluster's {@code
 * <name>-admin-kubeconfig}, which a pod cannot mount across namespaces), a Deployment running
 * {@code olmstead-agent run} in hosted mode, and a NetworkPolicy. A hash of the credential and of
 * the kubeconfig's source and content is a pod template annotation, so a rotated credential or
 * kubeconfig rolls the pod.
 */
public final class HostedAgentObjects {
  public static final String NAME = "olmstead-agent";
  public static final String SERVICE_NETWORK = "service-network-admin-kubeconfig";
  public static final String CLUSTER_LABEL = "olmstead.io/cluster";
  public static final String HASH_ANNOTATION = "olmstead.io/agent-config-hash";

  /** The labels every object carries; removal selects on them (with {@link #CLUSTER_LABEL}). */
  public static final Map<String, String> LABELS =
      Map.of(
          "app.kubernetes.io/name", NAME, "app.kubernetes.io/managed-by", "olmstead-control-plane");

  static final int HEALTH_PORT = 8081;
  static final String CREDENTIAL_KEY = "credential";
  static final String KUBECONFIG_KEY = "kubeconfig";
  private static final String KUBECONFIG_DIR = "/etc/olmstead/guest";
  private static final String CREDENTIAL_DIR = "/var/run/olmstead";

  private HostedAgentObjects() {}

  /**
   * Where the agent finds the guest API: the namespace's {@value #SERVICE_NETWORK} secret (mounted
   * as is), or else the kubeconfig copied from the HostedCluster's {@code <name>-admin-kubeconfig};
   * and a digest of the kubeconfig's content (never the content itself in the pod template), so
   * that HyperShift rotating either secret rolls the pod: the agent reads its kubeconfig once, at
   * start.
   */
  public record GuestKubeconfig(Optional<String> copied, String digest) {
    public static GuestKubeconfig serviceNetwork(String kubeconfig) {
      return new GuestKubeconfig(Optional.empty(), sha256(kubeconfig));
    }

    public static GuestKubeconfig copy(String kubeconfig) {
      return new GuestKubeconfig(Optional.of(kubeconfig), sha256(kubeconfig));
    }

    /** Without the copied kubeconfig: a record's toString would otherwise print its credentials. */
    @Override
    public String toString() {
      return "GuestKubeconfig["
          + (copied.isPresent() ? "copy" : SERVICE_NETWORK)
          + ", "
          + digest
          + "]";
    }
  }

  /**
   * The objects, in the order to apply them (the Secret and ServiceAccount before the Deployment
   * that uses them).
   */
  public static List<HasMetadata> of(
      String cluster,
      String namespace,
      String credential,
      GuestKubeconfig guest,
      HostedAgentSettings settings) {
    Map<String, String> labels = labels(cluster);
    return List.of(
        serviceAccount(namespace, labels),
        secret(namespace, labels, credential, guest),
        deployment(cluster, namespace, labels, hash(credential, guest), guest, settings),
        networkPolicy(namespace, labels, guest, settings));
  }

  public static Map<String, String> labels(String cluster) {
    Map<String, String> labels = new LinkedHashMap<>(LABELS);
    labels.put(CLUSTER_LABEL, cluster);
    return labels;
  }

  private static ObjectMeta meta(String namespace, Map<String, String> labels) {
    return new ObjectMetaBuilder()
        .withName(NAME)
        .withNamespace(namespace)
        .withLabels(labels)
        .build();
  }

  static ServiceAccount serviceAccount(String namespace, Map<String, String> labels) {
    return new ServiceAccountBuilder()
        .withMetadata(meta(namespace, labels))
        .withAutomountServiceAccountToken(false)
        .build();
  }

  static Secret secret(
      String namespace, Map<String, String> labels, String credential, GuestKubeconfig guest) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(CREDENTIAL_KEY, base64(credential));
    guest.copied().ifPresent(k -> data.put(KUBECONFIG_KEY, base64(k)));
    return new SecretBuilder()
        .withMetadata(meta(namespace, labels))
        .withType("Opaque")
        .withData(data)
        .build();
  }

  static Deployment deployment(
      String cluster,
      String namespace,
      Map<String, String> labels,
      String hash,
      GuestKubeconfig guest,
      HostedAgentSettings settings) {
    String kubeconfigSecret = guest.copied().isPresent() ? NAME : SERVICE_NETWORK;
    return new DeploymentBuilder()
        .withMetadata(meta(namespace, labels))
        .withNewSpec()
        .withReplicas(1)
        // one agent per cluster at a time: the old pod goes before the new one dials with the new
        // credential
        .withNewStrategy()
        .withType("Recreate")
        .endStrategy()
        .withNewSelector()
        .withMatchLabels(selector(labels))
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .withAnnotations(Map.of(HASH_ANNOTATION, hash))
        .endMetadata()
        .withNewSpec()
        .withServiceAccountName(NAME)
        .withAutomountServiceAccountToken(false)
        .withNewSecurityContext()
        .withRunAsNonRoot(true)
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .endSecurityContext()
        .addNewContainer()
        .withName("agent")
        .withImage(settings.requiredImage())
        .withArgs("run")
        .addNewEnv()
        .withName("OLMSTEAD_AGENT_MODE")
        .withValue("hosted")
        .endEnv()
        .addNewEnv()
        .withName("OLMSTEAD_CLUSTER_NAME")
        .withValue(cluster)
        .endEnv()
        .addNewEnv()
        .withName("OLMSTEAD_CONTROL_PLANE_URL")
        .withValue(settings.controlPlaneUrl())
        .endEnv()
        .addNewEnv()
        .withName("OLMSTEAD_KUBECONFIG")
        .withValue(KUBECONFIG_DIR + "/" + KUBECONFIG_KEY)
        .endEnv()
        .addNewEnv()
        .withName("OLMSTEAD_CREDENTIAL_FILE")
        .withValue(CREDENTIAL_DIR + "/" + CREDENTIAL_KEY)
        .endEnv()
        .addNewEnv()
        .withName("OLMSTEAD_AGENT_HEALTH_PORT")
        .withValue(Integer.toString(HEALTH_PORT))
        .endEnv()
        .addNewPort()
        .withName("health")
        .withContainerPort(HEALTH_PORT)
        .endPort()
        // as deploy/agent: liveness needs only a live event loop, readiness the control plane and
        // the guest API
        .withNewLivenessProbe()
        .withNewHttpGet()
        .withPath("/healthz")
        .withPort(new IntOrString("health"))
        .endHttpGet()
        .withPeriodSeconds(10)
        .withTimeoutSeconds(2)
        .withFailureThreshold(6)
        .endLivenessProbe()
        .withNewReadinessProbe()
        .withNewHttpGet()
        .withPath("/readyz")
        .withPort(new IntOrString("health"))
        .endHttpGet()
        .withPeriodSeconds(10)
        .withTimeoutSeconds(2)
        .withFailureThreshold(3)
        .endReadinessProbe()
        .withNewResources()
        .withRequests(Map.of("cpu", new Quantity("50m"), "memory", new Quantity("256Mi")))
        .withLimits(Map.of("memory", new Quantity("512Mi")))
        .endResources()
        .withNewSecurityContext()
        .withAllowPrivilegeEscalation(false)
        .withReadOnlyRootFilesystem(true)
        .withNewCapabilities()
        .withDrop("ALL")
        .endCapabilities()
        .endSecurityContext()
        .addNewVolumeMount()
        .withName("credential")
        .withMountPath(CREDENTIAL_DIR)
        .withReadOnly(true)
        .endVolumeMount()
        .addNewVolumeMount()
        .withName("guest-kubeconfig")
        .withMountPath(KUBECONFIG_DIR)
        .withReadOnly(true)
        .endVolumeMount()
        .addNewVolumeMount()
        .withName("tmp")
        .withMountPath("/tmp")
        .endVolumeMount()
        .endContainer()
        .addNewVolume()
        .withName("credential")
        .withNewSecret()
        .withSecretName(NAME)
        .addNewItem()
        .withKey(CREDENTIAL_KEY)
        .withPath(CREDENTIAL_KEY)
        .endItem()
        .withDefaultMode(0400)
        .endSecret()
        .endVolume()
        .addNewVolume()
        .withName("guest-kubeconfig")
        .withNewSecret()
        .withSecretName(kubeconfigSecret)
        .addNewItem()
        .withKey(KUBECONFIG_KEY)
        .withPath(KUBECONFIG_KEY)
        .endItem()
        .withDefaultMode(0400)
        .endSecret()
        .endVolume()
        // the image's temporary files and Vert.x file cache (docs/images.md): the root is read-only
        .addNewVolume()
        .withName("tmp")
        .withNewEmptyDir()
        .withSizeLimit(new Quantity("64Mi"))
        .endEmptyDir()
        .endVolume()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /**
   * Ingress: the health port only (the kubelet's probes). Egress: the control plane's pods, the
   * guest API server of this namespace ({@code app: kube-apiserver}, 6443) and DNS; with a copied
   * admin kubeconfig (the guest API's external endpoint, whose address is not known here) also port
   * 6443 anywhere.
   */
  static NetworkPolicy networkPolicy(
      String namespace,
      Map<String, String> labels,
      GuestKubeconfig guest,
      HostedAgentSettings settings) {
    List<NetworkPolicyEgressRule> egress = new ArrayList<>();
    egress.add(
        new NetworkPolicyEgressRuleBuilder()
            .addNewTo()
            .withNewNamespaceSelector()
            .addToMatchLabels("kubernetes.io/metadata.name", settings.controlPlaneNamespace())
            .endNamespaceSelector()
            .withNewPodSelector()
            .addToMatchLabels("app.kubernetes.io/name", "olmstead-control-plane")
            .endPodSelector()
            .endTo()
            .addNewPort()
            .withProtocol("TCP")
            .withPort(new IntOrString(8080))
            .endPort()
            .build());
    egress.add(
        new NetworkPolicyEgressRuleBuilder()
            .addNewTo()
            .withNewPodSelector()
            .addToMatchLabels("app", "kube-apiserver")
            .endPodSelector()
            .endTo()
            .addNewPort()
            .withProtocol("TCP")
            .withPort(new IntOrString(6443))
            .endPort()
            .build());
    // DNS in any namespace (kube-dns on 53, OpenShift's dns-default pods on 5353)
    NetworkPolicyEgressRuleBuilder dns =
        new NetworkPolicyEgressRuleBuilder()
            .addNewTo()
            .withNewNamespaceSelector()
            .endNamespaceSelector()
            .endTo();
    for (int port : new int[] {53, 5353}) {
      dns.addNewPort()
          .withProtocol("UDP")
          .withPort(new IntOrString(port))
          .endPort()
          .addNewPort()
          .withProtocol("TCP")
          .withPort(new IntOrString(port))
          .endPort();
    }
    egress.add(dns.build());
    if (guest.copied().isPresent()) {
      egress.add(
          new NetworkPolicyEgressRuleBuilder()
              .addNewPort()
              .withProtocol("TCP")
              .withPort(new IntOrString(6443))
              .endPort()
              .build());
    }
    return new NetworkPolicyBuilder()
        .withMetadata(meta(namespace, labels))
        .withNewSpec()
        .withNewPodSelector()
        .withMatchLabels(selector(labels))
        .endPodSelector()
        .withPolicyTypes("Ingress", "Egress")
        .addNewIngress()
        .addNewPort()
        .withProtocol("TCP")
        .withPort(new IntOrString(HEALTH_PORT))
        .endPort()
        .endIngress()
        .withEgress(egress)
        .endSpec()
        .build();
  }

  private static Map<String, String> selector(Map<String, String> labels) {
    return Map.of("app.kubernetes.io/name", NAME, CLUSTER_LABEL, labels.get(CLUSTER_LABEL));
  }

  /**
   * Whether the running Deployment is what would be applied: the same pod template hash
   * (credential, kubeconfig source and content) and image. False for a missing Deployment or one
   * without the annotation (written by an older version).
   */
  static boolean upToDate(Deployment running, Deployment desired) {
    if (running == null
        || running.getSpec() == null
        || running.getSpec().getTemplate() == null
        || running.getSpec().getTemplate().getMetadata() == null
        || running.getSpec().getTemplate().getSpec() == null
        || running.getSpec().getTemplate().getSpec().getContainers().isEmpty()) {
      return false;
    }
    Map<String, String> annotations =
        running.getSpec().getTemplate().getMetadata().getAnnotations();
    return annotations != null
        && desired
            .getSpec()
            .getTemplate()
            .getMetadata()
            .getAnnotations()
            .get(HASH_ANNOTATION)
            .equals(annotations.get(HASH_ANNOTATION))
        && desired
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0)
            .getImage()
            .equals(running.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
  }

  /**
   * A digest of what the pod reads (never the credential nor the kubeconfig itself): changes when
   * the credential is rotated, the kubeconfig source switches, or HyperShift rotates the
   * kubeconfig's content.
   */
  static String hash(String credential, GuestKubeconfig guest) {
    return sha256(
            credential
                + "\0"
                + (guest.copied().isPresent() ? "copy" : SERVICE_NETWORK)
                + "\0"
                + guest.digest())
        .substring(0, 16);
  }

  private static String sha256(String value) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
