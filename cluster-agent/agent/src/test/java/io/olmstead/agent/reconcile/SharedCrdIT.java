package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.olmcore.installplan.ProvidedApiClusterRoles;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One package installed at two versions in two namespaces shares one CRD and its aggregated
 * ClusterRoles: the CRD ends at the newer bundle's schema and stays there, whichever install came
 * first, over passes of both namespaces driven one by one; the roles stay while either install is
 * there.
 */
class SharedCrdIT {
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final String RBAC_API = "rbac.authorization.k8s.io/v1";
  private static final List<String> EXPECTED_ROLES =
      Stream.of("etcdclusters", "etcdbackups", "etcdrestores")
          .flatMap(
              crd ->
                  Stream.of("admin", "edit", "view", "crdview")
                      .map(suffix -> crd + ".etcd.database.coreos.com-v1beta2-" + suffix))
          .toList();
  private static final String CRD = "etcdclusters.etcd.database.coreos.com";
  private static final String NEWER_SCHEMA = "etcd clusters as etcdoperator.v0.9.4 describes them";
  private static final SubscriptionToReconcile OLD =
      SubscriptionToReconcile.of(
          "etcd-old", SharedCatalogs.CATALOG, "etcd", "singlenamespace-alpha", "ns-old", "0.9.2");
  private static final SubscriptionToReconcile NEW =
      SubscriptionToReconcile.of(
          "etcd-new", SharedCatalogs.CATALOG, "etcd", "singlenamespace-alpha", "ns-new", "0.9.4");
  private PassDriver driver;

  @BeforeEach
  void start() {
    // etcd's bundles all carry the same CRD: 0.9.4's gets a schema of its own here
    CatalogProvider catalogs =
        SharedCatalogs.etcdWithCrd(
            "etcdoperator.v0.9.4",
            CRD,
            crd ->
                ((ObjectNode)
                        crd.path("spec")
                            .path("versions")
                            .path(0)
                            .path("schema")
                            .path("openAPIV3Schema"))
                    .put("description", NEWER_SCHEMA));
    driver = new PassDriver(() -> catalogs);
  }

  @AfterEach
  void stop() {
    if (driver != null) {
      driver.close();
    }
  }

  @Test
  void theNewerInstallUpgradesTheSharedCrdAndTheOlderOneNeverWritesItBack() throws Exception {
    driver.passUntil("Succeeded", "ns-old", OLD);
    assertThat(schemaDescription()).isNotEqualTo(NEWER_SCHEMA);
    driver.passUntil("Succeeded", "ns-new", NEW);
    assertThat(schemaDescription()).isEqualTo(NEWER_SCHEMA);

    assertStableOverPassesOfBothNamespaces();
  }

  @Test
  void anOlderInstallArrivingLaterRunsOnTheNewerCrdWithoutWritingIt() throws Exception {
    driver.passUntil("Succeeded", "ns-new", NEW);
    String before = resourceVersion();
    driver.passUntil("Succeeded", "ns-old", OLD);
    assertThat(resourceVersion()).as("the older install never wrote the CRD").isEqualTo(before);

    assertStableOverPassesOfBothNamespaces();
  }

  @Test
  void driftOnTheSharedCrdIsRestoredByTheInstallThatWroteItAlone() throws Exception {
    driver.passUntil("Succeeded", "ns-old", OLD);
    driver.passUntil("Succeeded", "ns-new", NEW);
    ObjectNode edited =
        driver.get(CRD_API, "CustomResourceDefinition", null, CRD).orElseThrow().deepCopy();
    ((ObjectNode)
            edited.path("spec").path("versions").path(0).path("schema").path("openAPIV3Schema"))
        .put("description", "edited by hand");
    driver.write(edited);

    driver.pass("ns-old", OLD);
    assertThat(schemaDescription())
        .as("the older install leaves the CRD alone")
        .isEqualTo("edited by hand");
    driver.pass("ns-new", NEW);
    assertThat(schemaDescription()).isEqualTo(NEWER_SCHEMA);
    assertThat(driver.sink.latest("etcd-new").orElseThrow().condition(StatusBoard.DRIFT_CONDITION))
        .isPresent();
    assertThat(driver.sink.history("etcd-old"))
        .noneMatch(s -> s.condition(StatusBoard.DRIFT_CONDITION).isPresent());
  }

  @Test
  void theAggregatedClusterRolesAreSharedLikeTheCrdAndGoWithTheLastInstallOfThePackage()
      throws Exception {
    driver.passUntil("Succeeded", "ns-old", OLD);
    driver.passUntil("Succeeded", "ns-new", NEW);
    assertStableOverPassesOfBothNamespaces();
    for (String sub : List.of("etcd-old", "etcd-new")) {
      assertThat(driver.sink.history(sub))
          .as(sub)
          .noneMatch(s -> "OwnershipConflict".equals(s.reason()));
    }
    assertThat(aggregatedRoles()).containsExactlyInAnyOrderElementsOf(EXPECTED_ROLES);
    JsonNode admin =
        driver.get(RBAC_API, "ClusterRole", null, CRD + "-v1beta2-admin").orElseThrow();
    assertThat(admin.path("metadata").path("labels").has(ManagedLabels.SUBSCRIPTION))
        .as("no install owns it")
        .isFalse();
    assertThat(admin.path("metadata").path("annotations").path(CrdWrites.WRITER).asText())
        .isEqualTo("ns-new/etcd-new");

    driver.pass("ns-new");
    assertThat(aggregatedRoles())
        .as("etcd-old still needs them")
        .containsExactlyInAnyOrderElementsOf(EXPECTED_ROLES);
    driver.pass("ns-old", OLD);
    assertThat(driver.sink.latest("etcd-old").orElseThrow().phase()).isEqualTo("Succeeded");

    driver.pass("ns-old");
    assertThat(aggregatedRoles()).as("no install of etcd is left").isEmpty();
  }

  private List<String> aggregatedRoles() throws Exception {
    return driver.list(RBAC_API, "ClusterRole").stream()
        .filter(ProvidedApiClusterRoles::isProvidedApiRole)
        .map(r -> r.path("metadata").path("name").asText())
        .toList();
  }

  private void assertStableOverPassesOfBothNamespaces() throws Exception {
    String settled = resourceVersion();
    for (int i = 0; i < 5; i++) {
      driver.pass("ns-old", OLD);
      driver.pass("ns-new", NEW);
    }
    JsonNode crd = driver.get(CRD_API, "CustomResourceDefinition", null, CRD).orElseThrow();
    assertThat(crd.path("metadata").path("resourceVersion").asText())
        .as("no pass wrote the CRD")
        .isEqualTo(settled);
    assertThat(crd.path("metadata").path("annotations").path(CrdWrites.VERSION).asText())
        .isEqualTo("0.9.4");
    assertThat(crd.path("metadata").path("annotations").path(CrdWrites.WRITER).asText())
        .isEqualTo("ns-new/etcd-new");
    assertThat(schemaDescription()).isEqualTo(NEWER_SCHEMA);
    for (String sub : List.of("etcd-old", "etcd-new")) {
      assertThat(driver.sink.latest(sub).orElseThrow().phase()).isEqualTo("Succeeded");
      assertThat(driver.sink.history(sub))
          .as(sub + " restored nothing")
          .noneMatch(s -> s.condition(StatusBoard.DRIFT_CONDITION).isPresent());
    }
  }

  private String schemaDescription() throws Exception {
    return driver
        .get(CRD_API, "CustomResourceDefinition", null, CRD)
        .orElseThrow()
        .path("spec")
        .path("versions")
        .path(0)
        .path("schema")
        .path("openAPIV3Schema")
        .path("description")
        .asText();
  }

  private String resourceVersion() throws Exception {
    return driver
        .get(CRD_API, "CustomResourceDefinition", null, CRD)
        .orElseThrow()
        .path("metadata")
        .path("resourceVersion")
        .asText();
  }
}
