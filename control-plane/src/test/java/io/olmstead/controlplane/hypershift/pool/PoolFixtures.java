package io.olmstead.controlplane.hypershift.pool;

import static io.olmstead.controlplane.hypershift.HypershiftFixtures.at;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.olmstead.controlplane.hypershift.HypershiftFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** Mock API servers (CRUD) for the pool ITs: the management cluster with the real HostedCluster CRD, and guests. */
public final class PoolFixtures {
  /** What {@code service-network-admin-kubeconfig} names: resolvable only inside the control plane namespace. */
  public static final String IN_NAMESPACE_SERVER = "https://kube-apiserver:6443";
  public static final ResourceDefinitionContext HOSTED_CLUSTERS = new ResourceDefinitionContext.Builder()
      .withGroup("hypershift.openshift.io").withVersion("v1beta1").withKind("HostedCluster")
      .withPlural("hostedclusters").withNamespaced(true).build();

  private PoolFixtures() {
  }

  public static KubernetesMockServer crudServer() {
    java.util.logging.Logger.getLogger("io.fabric8.mockwebserver").setLevel(java.util.logging.Level.WARNING);
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
        new KubernetesCrudDispatcher(), false);
    server.init();
    return server;
  }

  /** A management cluster: the real CRD and the namespace {@code clusters}. */
  public static void prepareManagement(KubernetesClient kube) throws IOException {
    try (InputStream in = Files.newInputStream(HypershiftFixtures.hostedClusterCrd())) {
      kube.apiextensions().v1().customResourceDefinitions()
          .resource(kube.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
    }
    namespace(kube, "clusters");
  }

  public static String kubeconfig(String server) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: guest\n  cluster:\n    server: " + server
        + "\ncontexts:\n- name: guest\n  context:\n    cluster: guest\n    user: admin\ncurrent-context: guest\n"
        + "users:\n- name: admin\n  user:\n    token: not-checked\n";
  }

  /**
   * An Available HostedCluster {@code clusters/<name>} (the example object, a fresh clusterID), its control plane
   * namespace {@code clusters-<name>} holding {@code service-network-admin-kubeconfig} with {@code serviceNetwork} as
   * server (none when {@code serviceNetwork} is null), and {@code <name>-admin-kubeconfig} with {@code admin} as server.
   */
  public static void hostedCluster(KubernetesClient kube, String name, String serviceNetwork, String admin) {
    namespace(kube, "clusters-" + name);
    if (serviceNetwork != null) {
      secret(kube, "clusters-" + name, "service-network-admin-kubeconfig", serviceNetwork);
    }
    secret(kube, "clusters", name + "-admin-kubeconfig", admin);
    Map<String, Object> hc = HypershiftFixtures.example();
    Map<String, Object> metadata = at(hc, "metadata");
    metadata.put("name", name);
    metadata.remove("uid");
    metadata.remove("finalizers");
    at(hc, "spec").put("clusterID", UUID.randomUUID().toString());
    at(hc, "status", "kubeconfig").put("name", name + "-admin-kubeconfig");
    GenericKubernetesResource resource = kube.getKubernetesSerialization().convertValue(hc,
        GenericKubernetesResource.class);
    resource.getMetadata().setResourceVersion(null);
    var client = kube.genericKubernetesResources(HOSTED_CLUSTERS).inNamespace("clusters");
    GenericKubernetesResource stored = client.resource(resource).create();
    resource.getMetadata().setResourceVersion(stored.getMetadata().getResourceVersion());
    client.resource(resource).updateStatus();
  }

  /** Creates or replaces a kubeconfig Secret whose server is {@code server}. */
  public static void secret(KubernetesClient kube, String namespace, String name, String server) {
    String data = Base64.getEncoder().encodeToString(kubeconfig(server).getBytes(StandardCharsets.UTF_8));
    kube.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name)
        .withNamespace(namespace).endMetadata().addToData("kubeconfig", data).build()).createOr(e -> e.update());
  }

  private static void namespace(KubernetesClient kube, String name) {
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .createOr(e -> e.update());
  }
}
