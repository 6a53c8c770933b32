package io.olmstead.controlplane.dev;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.olmstead.agent.sim.DiscoveringCrudDispatcher;
import io.olmstead.controlplane.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * SIMULATION: a management cluster in this process for {@code dev --simulate-hypershift}: a fabric8
 * mock API server in CRUD mode (answering kubectl's discovery, see {@link
 * DiscoveringCrudDispatcher}) holding the real HostedCluster and NodePool CRDs, the namespace
 * {@value #NAMESPACE}, and a kubeconfig file that reaches it (plain HTTP on 127.0.0.1).
 */
public final class SimulatedManagementCluster implements AutoCloseable {
  public static final String NAMESPACE = "clusters";
  public static final String HOSTED_CLUSTER_CRD = "hostedclusters.hypershift.openshift.io.crd.yaml";
  public static final String NODE_POOL_CRD = "nodepools.hypershift.openshift.io.crd.yaml";
  public static final String DEFAULT_RELEASE_IMAGE =
      "quay.io/openshift-release-dev/ocp-release:4.19.7-multi";
  public static final ResourceDefinitionContext HOSTED_CLUSTERS =
      new ResourceDefinitionContext.Builder()
          .withGroup("hypershift.openshift.io")
          .withVersion("v1beta1")
          .withKind("HostedCluster")
          .withPlural("hostedclusters")
          .withNamespaced(true)
          .build();

  /**
   * The mock web server logs every request through JUL at INFO, far too chatty for dev; held here
   * because JUL keeps loggers weakly and a collected one would forget its level.
   */
  static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_LOG.setLevel(Level.WARNING);
  }

  private final KubernetesMockServer server;
  private final KubernetesClient client;

  private SimulatedManagementCluster(KubernetesMockServer server, KubernetesClient client) {
    this.server = server;
    this.client = client;
  }

  /** Checks that {@code crdDir} holds the two CRD files (the error names {@code flag}). */
  public static void checkCrds(Path crdDir, String flag) {
    for (String file : List.of(HOSTED_CLUSTER_CRD, NODE_POOL_CRD)) {
      if (crdDir == null || !Files.isReadable(crdDir.resolve(file))) {
        throw new ConfigException(
            flag,
            "'"
                + crdDir
                + "' has no readable "
                + file
                + " (the HyperShift CRDs, as in"
                + " ../shared/hypershift or openshift/hypershift cmd/install/assets/crds)");
      }
    }
  }

  /**
   * Starts the mock, installs the CRDs of {@code crdDir} and the namespace, and writes {@code
   * kubeconfig}.
   */
  public static SimulatedManagementCluster start(Path crdDir, Path kubeconfig) {
    checkCrds(crdDir, "--hypershift-crds");
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new DiscoveringCrudDispatcher(),
            false);
    server.init();
    KubernetesClient client = server.createClient();
    try {
      for (String file : List.of(HOSTED_CLUSTER_CRD, NODE_POOL_CRD)) {
        try (InputStream in = Files.newInputStream(crdDir.resolve(file))) {
          CustomResourceDefinition crd =
              client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
          // created, not applied: the HostedCluster CRD is larger than the last-applied annotation
          // allows
          client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
      }
      client
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      writeKubeconfig(kubeconfig, "simulated-management", client.getMasterUrl().toString());
      return new SimulatedManagementCluster(server, client);
    } catch (IOException | RuntimeException e) {
      client.close();
      server.destroy();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  /**
   * The HostedCluster dev creates at start: no status, the default release image, a stable
   * clusterID.
   */
  public static GenericKubernetesResource hostedCluster(
      String name, Map<String, String> labels, String clusterId, String releaseImage) {
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("apiVersion", "hypershift.openshift.io/v1beta1");
    object.put("kind", "HostedCluster");
    object.put(
        "metadata",
        new LinkedHashMap<>(Map.of("name", name, "namespace", NAMESPACE, "labels", labels)));
    Map<String, Object> spec = new LinkedHashMap<>();
    if (clusterId != null) {
      spec.put("clusterID", clusterId);
    }
    spec.put("release", Map.of("image", releaseImage));
    spec.put("platform", Map.of("type", "None"));
    spec.put("pullSecret", Map.of("name", name + "-pull-secret"));
    spec.put(
        "networking",
        Map.of(
            "networkType",
            "OVNKubernetes",
            "clusterNetwork",
            List.of(Map.of("cidr", "10.132.0.0/14")),
            "serviceNetwork",
            List.of(Map.of("cidr", "172.31.0.0/16"))));
    spec.put(
        "services",
        List.of(
            Map.of(
                "service",
                "APIServer",
                "servicePublishingStrategy",
                Map.of("type", "LoadBalancer"))));
    spec.put("dns", Map.of("baseDomain", "sim.olmstead.invalid"));
    spec.put("etcd", Map.of("managementType", "Managed"));
    object.put("spec", spec);
    return new KubernetesSerialization().convertValue(object, GenericKubernetesResource.class);
  }

  /**
   * Creates {@code hc-01}..{@code hc-NN} in {@value #NAMESPACE}; their clusterIDs derive from the
   * name, so a restarted dev finds the clusters it enrolled before (a HostedCluster created by hand
   * gets a random one).
   */
  public void createHostedClusters(int count) {
    for (int i = 1; i <= count; i++) {
      String name = String.format("hc-%02d", i);
      Map<String, String> labels = new LinkedHashMap<>();
      labels.put("env", "dev");
      labels.put("region", List.of("us-east", "eu-west", "ap-south").get((i - 1) % 3));
      String clusterId =
          UUID.nameUUIDFromBytes(
                  ("olmstead-dev/" + NAMESPACE + "/" + name).getBytes(StandardCharsets.UTF_8))
              .toString();
      client
          .genericKubernetesResources(HOSTED_CLUSTERS)
          .inNamespace(NAMESPACE)
          .resource(hostedCluster(name, labels, clusterId, DEFAULT_RELEASE_IMAGE))
          .create();
    }
  }

  /** A client to this management cluster (for the simulated operator and tests). */
  public KubernetesClient client() {
    return client;
  }

  public String url() {
    return client.getMasterUrl().toString();
  }

  /**
   * A kubeconfig naming cluster {@code name} at {@code server} (no credentials: the mock checks
   * none), written atomically, readable by its owner only (a temporary file's 0600).
   */
  static void writeKubeconfig(Path file, String name, String server) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, name, ".tmp");
    Files.writeString(tmp, kubeconfig(name, server));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** A kubeconfig document naming one cluster at {@code server}. */
  static String kubeconfig(String name, String server) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: "
        + name
        + "\n  cluster:\n    server: "
        + server
        + "\ncontexts:\n- name: "
        + name
        + "\n  context:\n    cluster: "
        + name
        + "\n    user: admin\n"
        + "current-context: "
        + name
        + "\nusers:\n- name: admin\n  user:\n    token: simulated\n";
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }
}
