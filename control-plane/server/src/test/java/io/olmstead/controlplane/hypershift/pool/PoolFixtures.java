package io.olmstead.controlplane.hypershift.pool;

import static io.olmstead.controlplane.hypershift.HypershiftFixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.sim.DiscoveringCrudDispatcher;
import io.olmstead.agent.sim.KubeletStandIn;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.hypershift.HypershiftFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Mock API servers (CRUD) for the pool ITs: the management cluster with the real HostedCluster CRD,
 * and guests.
 */
public final class PoolFixtures {
  /**
   * What {@code service-network-admin-kubeconfig} names: resolvable only inside the control plane
   * namespace.
   */
  public static final String IN_NAMESPACE_SERVER = "https://kube-apiserver:6443";

  public static final ResourceDefinitionContext HOSTED_CLUSTERS =
      new ResourceDefinitionContext.Builder()
          .withGroup("hypershift.openshift.io")
          .withVersion("v1beta1")
          .withKind("HostedCluster")
          .withPlural("hostedclusters")
          .withNamespaced(true)
          .build();

  private PoolFixtures() {}

  public static KubernetesMockServer crudServer() {
    java.util.logging.Logger.getLogger("io.fabric8.mockwebserver")
        .setLevel(java.util.logging.Level.WARNING);
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new DiscoveringCrudDispatcher(),
            false);
    server.init();
    return server;
  }

  /** A management cluster: the real CRD and the namespace {@code clusters}. */
  public static void prepareManagement(KubernetesClient kube) throws IOException {
    try (InputStream in = Files.newInputStream(HypershiftFixtures.hostedClusterCrd())) {
      kube.apiextensions()
          .v1()
          .customResourceDefinitions()
          .resource(kube.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class))
          .create();
    }
    namespace(kube, "clusters");
  }

  public static String kubeconfig(String server) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: guest\n  cluster:\n    server: "
        + server
        + "\ncontexts:\n- name: guest\n  context:\n    cluster: guest\n    user: admin\ncurrent-context: guest\n"
        + "users:\n- name: admin\n  user:\n    token: not-checked\n";
  }

  /**
   * An Available HostedCluster {@code clusters/<name>} (the example object, a fresh clusterID), its
   * control plane namespace {@code clusters-<name>} holding {@code
   * service-network-admin-kubeconfig} with {@code serviceNetwork} as server (none when {@code
   * serviceNetwork} is null), and {@code <name>-admin-kubeconfig} with {@code admin} as server.
   */
  public static void hostedCluster(
      KubernetesClient kube, String name, String serviceNetwork, String admin) {
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
    GenericKubernetesResource resource =
        kube.getKubernetesSerialization().convertValue(hc, GenericKubernetesResource.class);
    resource.getMetadata().setResourceVersion(null);
    var client = kube.genericKubernetesResources(HOSTED_CLUSTERS).inNamespace("clusters");
    GenericKubernetesResource stored = client.resource(resource).create();
    resource.getMetadata().setResourceVersion(stored.getMetadata().getResourceVersion());
    client.resource(resource).updateStatus();
  }

  /** A new pool token (what an admin creates with {@code POST /api/v1/pool-tokens}). */
  static String poolToken(TestControlPlane cp) {
    Response token =
        new ApiClient(cp)
            .json(
                "POST",
                "/api/v1/pool-tokens",
                TestControlPlane.ADMIN_TOKEN,
                new JsonObject().put("name", "pool"));
    assertThat(token.status()).as(token.body()).isEqualTo(201);
    String secret = token.json().getString("token");
    assertThat(secret).startsWith(PoolTokensModule.TOKEN_PREFIX);
    return secret;
  }

  /**
   * What a real API server and kubelet do for a guest: CRDs become Established, Deployments
   * Available.
   */
  static KubeletStandIn kubelet(String guest, KubernetesClient client) {
    return new KubeletStandIn(
            "guest-" + guest,
            new ResourceOperator(client, new ResourceKinds()),
            java.time.Duration.ofMillis(300),
            false)
        .start(java.time.Duration.ofMillis(200));
  }

  /** The Deployments in {@code demo-operator} of a guest (what the demo subscription installs). */
  static java.util.List<String> deployments(KubernetesClient guest) {
    return guest.apps().deployments().inNamespace("demo-operator").list().getItems().stream()
        .map(d -> d.getMetadata().getName())
        .toList();
  }

  /**
   * A cluster's status through the API ({@code connected}, ...), or the HTTP status when it is not
   * found.
   */
  static String status(ApiClient api, String cluster) {
    Response r = api.get("/api/v1/clusters/" + cluster, TestControlPlane.ADMIN_TOKEN);
    return r.status() == 200 ? r.json().getString("status") : "HTTP " + r.status();
  }

  /** Creates or replaces a kubeconfig Secret whose server is {@code server}. */
  public static void secret(KubernetesClient kube, String namespace, String name, String server) {
    String data =
        Base64.getEncoder().encodeToString(kubeconfig(server).getBytes(StandardCharsets.UTF_8));
    kube.secrets()
        .inNamespace(namespace)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .addToData("kubeconfig", data)
                .build())
        .createOr(e -> e.update());
  }

  private static void namespace(KubernetesClient kube, String name) {
    kube.namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .createOr(e -> e.update());
  }
}
