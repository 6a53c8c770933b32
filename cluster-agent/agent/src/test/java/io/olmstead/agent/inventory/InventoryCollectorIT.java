package io.olmstead.agent.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.ContainerMetricsBuilder;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.PodMetricsBuilder;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.PodMetricsListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.reconcile.SubscriptionStatus;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.SchemaDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The inventory of a cluster on the fabric8 mock API server (CRUD mode): an operator and the
 * dependency it pulled in, read back from the agent's OperatorConditions; custom resources counted;
 * the operator's own pods; per custom resource the pods it owns through owner references (CR →
 * Deployment → ReplicaSet → Pod) or a KubePlus label relationship.
 */
@EnableKubernetesMockClient(crud = true)
class InventoryCollectorIT {
  static final String CRD = "dbclusters.example.com";
  KubernetesClient client;
  KubernetesMockServer server;
  private ResourceOperator resources;

  @BeforeEach
  void cluster() throws Exception {
    resources = new ResourceOperator(client, new ResourceKinds());
    resources.apply(OperatorConditions.crd());
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(
            new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(CRD)
                .withAnnotations(
                    Map.of(
                        "resource/label-relationship",
                        "on:Pod, key:db.example.com/cluster, value:INSTANCE.metadata.name"))
                .endMetadata()
                .withNewSpec()
                .withGroup("example.com")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("DbCluster")
                .withPlural("dbclusters")
                .withSingular("dbcluster")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .endVersion()
                .endSpec()
                .build())
        .create();
    record("ops", "db-operator", "db-operator.v1.2.0", "db-operator", "1.2.0", null, CRD);
    record("ops", "db-operator-support", "support.v0.1.0", "support", "0.1.0", "db-operator", "");
    // the operator's own Deployment (as the agent labels it), its ReplicaSet and one pod that
    // restarted twice
    String deployment =
        create(
            new DeploymentBuilder()
                .withMetadata(
                    meta(
                        "ops",
                        "db-operator",
                        null,
                        ManagedLabels.of("db-operator", "db-operator.v1.2.0", "ops")))
                .build());
    String rs =
        create(
            new ReplicaSetBuilder()
                .withMetadata(
                    meta(
                        "ops",
                        "db-operator-abc",
                        owner("Deployment", "db-operator", deployment),
                        Map.of()))
                .build());
    pod(
        "ops",
        "db-operator-abc-1",
        owner("ReplicaSet", "db-operator-abc", rs),
        Map.of(),
        "100m",
        "128Mi",
        2);
  }

  @Test
  void reportsOperatorsTheirCustomResourcesPodsAndStacks() throws Exception {
    String main = dbCluster("app", "main");
    dbCluster("app", "idle");
    dbCluster("other", "third");
    // main owns Deployment → ReplicaSet → two pods
    String dep =
        create(
            new DeploymentBuilder()
                .withMetadata(meta("app", "main-db", owner("DbCluster", "main", main), Map.of()))
                .build());
    String rs =
        create(
            new ReplicaSetBuilder()
                .withMetadata(
                    meta("app", "main-db-x", owner("Deployment", "main-db", dep), Map.of()))
                .build());
    pod("app", "main-db-x-1", owner("ReplicaSet", "main-db-x", rs), Map.of(), "500m", "1Gi", 0);
    pod("app", "main-db-x-2", owner("ReplicaSet", "main-db-x", rs), Map.of(), "500m", "1Gi", 1);
    // a pod tied to main only by the CRD's KubePlus label relationship
    pod("app", "main-backup", null, Map.of("db.example.com/cluster", "main"), "250m", "256Mi", 0);
    // a pod of nobody's
    pod("app", "stray", null, Map.of(), "1", "1Gi", 0);

    Inventory inventory = collector().collect();

    assertThat(SchemaDecoder.violation(inventory)).isNull();
    assertThat(inventory.operators())
        .extracting(Inventory.Operator::subscription)
        .containsExactly("db-operator", "db-operator-support");
    Inventory.Operator op = inventory.operators().get(0);
    assertThat(op.packageName()).isEqualTo("db-operator");
    assertThat(op.version()).isEqualTo("1.2.0");
    assertThat(op.phase()).isEqualTo("Succeeded");
    assertThat(op.reason()).isEqualTo("InstallSucceeded");
    assertThat(op.dependencyOf()).isNull();
    assertThat(op.customResources())
        .containsExactly(new Inventory.CustomResources(CRD, "DbCluster", 3, null));
    assertThat(op.pods().count()).isEqualTo(1);
    assertThat(op.pods().restarts()).isEqualTo(2);
    assertThat(op.pods().requests()).isEqualTo(new Inventory.Resources(100, 128L * 1024 * 1024));
    assertThat(op.pods().usage()).as("no metrics.k8s.io: usage absent").isNull();
    assertThat(op.stacks()).hasSize(1);
    Inventory.Stack stack = op.stacks().get(0);
    assertThat(stack.name()).isEqualTo("main");
    assertThat(stack.namespace()).isEqualTo("app");
    assertThat(stack.pods().count()).isEqualTo(3);
    assertThat(stack.pods().restarts()).isEqualTo(1);
    assertThat(stack.pods().requests())
        .isEqualTo(new Inventory.Resources(1250, (2048L + 256) * 1024 * 1024));

    Inventory.Operator dependency = inventory.operators().get(1);
    assertThat(dependency.dependencyOf()).isEqualTo("db-operator");
    assertThat(dependency.packageName()).isEqualTo("support");
    assertThat(dependency.phase())
        .as("no status reported: the OperatorCondition's phase")
        .isEqualTo("Succeeded");
    assertThat(dependency.customResources()).isEmpty();
  }

  @Test
  void addsActualUseWhereTheClusterServesMetrics() throws Exception {
    server
        .expect()
        .get()
        .withPath("/apis")
        .andReturn(
            200,
            new APIGroupListBuilder()
                .addToGroups(new APIGroupBuilder().withName("metrics.k8s.io").build())
                .build())
        .always();
    server
        .expect()
        .get()
        .withPath("/apis/metrics.k8s.io/v1beta1/namespaces/ops/pods")
        .andReturn(
            200,
            new PodMetricsListBuilder()
                .addToItems(
                    new PodMetricsBuilder()
                        .withNewMetadata()
                        .withName("db-operator-abc-1")
                        .withNamespace("ops")
                        .endMetadata()
                        .addToContainers(
                            new ContainerMetricsBuilder()
                                .withName("c")
                                .withUsage(
                                    Map.of(
                                        "cpu", new Quantity("12m"), "memory", new Quantity("64Mi")))
                                .build())
                        .build())
                .build())
        .always();

    Inventory.Operator op = collector().collect().operators().get(0);

    assertThat(op.pods().usage()).isEqualTo(new Inventory.Resources(12, 64L * 1024 * 1024));
  }

  @Test
  void reportsOnlyWhatChanged() throws Exception {
    List<Inventory> sent = new ArrayList<>();
    try (InventoryReporter reporter =
        new InventoryReporter("c1", collector(), sent::add, Duration.ofHours(1))) {
      assertThat(reporter.collectNow()).isPresent();
      assertThat(reporter.collectNow()).as("nothing changed").isEmpty();
      dbCluster("app", "new");
      Optional<Inventory> changed = reporter.collectNow();
      assertThat(changed).isPresent();
      assertThat(changed.get().operators().get(0).customResources().get(0).count()).isEqualTo(1);
    }
    assertThat(sent).hasSize(2);
  }

  private InventoryCollector collector() {
    return new InventoryCollector(
        client,
        () ->
            Map.of(
                "db-operator",
                new SubscriptionStatus(
                    "db-operator",
                    "ops",
                    "db-operator.v1.2.0",
                    "1.2.0",
                    "db-operator.v1.2.0",
                    "1.2.0",
                    "Succeeded",
                    "InstallSucceeded",
                    null,
                    null,
                    1)));
  }

  /**
   * An OperatorCondition as the agent writes it for an installed bundle (its restart-safe record).
   */
  private void record(
      String ns,
      String subscription,
      String bundle,
      String pkg,
      String version,
      String dependencyOf,
      String crds)
      throws Exception {
    Map<String, String> labels =
        new java.util.HashMap<>(ManagedLabels.of(subscription, bundle, ns));
    if (dependencyOf != null) {
      labels.put(ManagedLabels.DEPENDENCY_OF, dependencyOf);
    }
    ObjectNode oc =
        OperatorConditions.forBundle(
            bundle,
            ns,
            labels,
            Map.of(
                ManagedLabels.SUBSCRIPTION_ANNOTATION,
                subscription,
                ManagedLabels.PHASE_ANNOTATION,
                "Succeeded",
                "olmstead.io/package",
                pkg,
                "olmstead.io/version",
                version,
                "olmstead.io/crds",
                crds),
            List.of(),
            List.of());
    resources.apply(oc);
  }

  private String dbCluster(String ns, String name) {
    String uid = UUID.randomUUID().toString();
    return client
        .genericKubernetesResources("example.com/v1", "DbCluster")
        .inNamespace(ns)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("example.com/v1")
                .withKind("DbCluster")
                .withMetadata(
                    new ObjectMetaBuilder().withName(name).withNamespace(ns).withUid(uid).build())
                .build())
        .create()
        .getMetadata()
        .getUid();
  }

  private void pod(
      String ns,
      String name,
      OwnerReference owner,
      Map<String, String> labels,
      String cpu,
      String memory,
      int restarts) {
    create(
        new PodBuilder()
            .withMetadata(meta(ns, name, owner, labels))
            .withNewSpec()
            .addToContainers(
                new ContainerBuilder()
                    .withName("c")
                    .withResources(
                        new ResourceRequirementsBuilder()
                            .withRequests(
                                Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
                            .build())
                    .build())
            .endSpec()
            .withNewStatus()
            .withPhase("Running")
            .addToContainerStatuses(
                new ContainerStatusBuilder().withName("c").withRestartCount(restarts).build())
            .endStatus()
            .build());
  }

  private String create(HasMetadata object) {
    return client.resource(object).create().getMetadata().getUid();
  }

  private static ObjectMeta meta(
      String ns, String name, OwnerReference owner, Map<String, String> labels) {
    ObjectMetaBuilder b =
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(ns)
            .withUid(UUID.randomUUID().toString())
            .withLabels(labels);
    if (owner != null) {
      b.withOwnerReferences(owner);
    }
    return b.build();
  }

  private static OwnerReference owner(String kind, String name, String uid) {
    return new OwnerReferenceBuilder()
        .withKind(kind)
        .withName(name)
        .withUid(uid)
        .withController(true)
        .build();
  }
}
