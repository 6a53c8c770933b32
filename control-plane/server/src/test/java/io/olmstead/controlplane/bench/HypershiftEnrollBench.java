package io.olmstead.controlplane.bench;

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
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.hypershift.HypershiftFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Load harness (not a test): how long after a HostedCluster turns {@code Available=True} (with its
 * kubeconfig secret already there) its cluster is enrolled, for N HostedClusters turning Available
 * at once on a fabric8 mock API server (CRUD, the real CRD), a control plane with embedded
 * PostgreSQL in this JVM, clusters polled through the REST API every 50 ms. It measures enrollment,
 * not an agent connecting (no agent is started for hosted clusters yet).
 */
public final class HypershiftEnrollBench {
  private static final ResourceDefinitionContext HOSTED_CLUSTERS =
      new ResourceDefinitionContext.Builder()
          .withGroup("hypershift.openshift.io")
          .withVersion("v1beta1")
          .withKind("HostedCluster")
          .withPlural("hostedclusters")
          .withNamespaced(true)
          .build();

  private HypershiftEnrollBench() {}

  @SuppressWarnings("unchecked")
  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    java.util.logging.Logger.getLogger("io.fabric8.mockwebserver")
        .setLevel(java.util.logging.Level.WARNING);
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init();
    KubernetesClient kube = server.createClient();
    Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
    Files.writeString(
        kubeconfig,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: mock\n  cluster:\n    server: "
            + kube.getMasterUrl()
            + "\ncontexts:\n- name: mock\n  context:\n    cluster: mock\n    user: u\n"
            + "current-context: mock\nusers:\n- name: u\n  user:\n    token: t\n");
    try (InputStream in = Files.newInputStream(HypershiftFixtures.hostedClusterCrd())) {
      kube.apiextensions()
          .v1()
          .customResourceDefinitions()
          .resource(kube.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class))
          .create();
    }
    kube.namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName("clusters").endMetadata().build())
        .create();
    try (TestControlPlane cp =
        TestControlPlane.start(
            TestDatabase.create(HypershiftEnrollBench.class),
            Map.of(HypershiftSettings.MANAGEMENT_KUBECONFIG, kubeconfig.toString()))) {
      ApiClient api = new ApiClient(cp);
      var hcs = kube.genericKubernetesResources(HOSTED_CLUSTERS).inNamespace("clusters");
      List<GenericKubernetesResource> created = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String name = String.format("bench-%04d", i);
        Map<String, Object> hc = HypershiftFixtures.example();
        ((Map<String, Object>) hc.get("metadata")).put("name", name);
        ((Map<String, Object>) hc.get("metadata")).remove("uid");
        ((Map<String, Object>) hc.get("spec")).put("clusterID", UUID.randomUUID().toString());
        ((Map<String, Object>) ((Map<String, Object>) hc.get("status")).get("kubeconfig"))
            .put("name", name + "-admin-kubeconfig");
        kube.secrets()
            .inNamespace("clusters")
            .resource(
                new SecretBuilder()
                    .withNewMetadata()
                    .withName(name + "-admin-kubeconfig")
                    .endMetadata()
                    .addToData("kubeconfig", Base64.getEncoder().encodeToString("x".getBytes()))
                    .build())
            .create();
        GenericKubernetesResource resource =
            kube.getKubernetesSerialization().convertValue(hc, GenericKubernetesResource.class);
        // created without status (the mock keeps status apart, like the API server): not Available
        // yet
        created.add(hcs.resource(resource).create());
        resource
            .getMetadata()
            .setResourceVersion(created.get(i).getMetadata().getResourceVersion());
        created.set(i, resource);
      }
      Thread.sleep(3000); // the watcher has seen them all, none enrolled
      Map<String, Long> availableAt = new HashMap<>();
      for (GenericKubernetesResource resource : created) {
        hcs.resource(resource).updateStatus();
        availableAt.put("clusters-" + resource.getMetadata().getName(), System.nanoTime());
      }
      Map<String, Long> seenAt = new HashMap<>();
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (seenAt.size() < count && System.nanoTime() < deadline) {
        var page =
            api.get(
                "/api/v1/clusters?limit=500&selector=olmstead.io/source%3Dhypershift",
                TestControlPlane.ADMIN_TOKEN);
        long now = System.nanoTime();
        page.items().forEach(c -> seenAt.putIfAbsent(((JsonObject) c).getString("name"), now));
        Thread.sleep(50);
      }
      List<Double> millis = new ArrayList<>();
      seenAt.forEach((name, at) -> millis.add((at - availableAt.get(name)) / 1e6));
      Collections.sort(millis);
      System.out.printf(
          "HostedClusters %d, enrolled %d; Available=True -> enrolled: p50 %.0f ms, p99 %.0f ms,"
              + " max %.0f ms%n",
          count, millis.size(), pct(millis, 0.50), pct(millis, 0.99), pct(millis, 1.0));
    } finally {
      kube.close();
      server.destroy();
    }
  }

  private static double pct(List<Double> sorted, double p) {
    return sorted.isEmpty()
        ? Double.NaN
        : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
  }
}
