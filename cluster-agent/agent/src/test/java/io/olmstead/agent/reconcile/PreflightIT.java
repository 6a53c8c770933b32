package io.olmstead.agent.reconcile;

import static io.olmstead.agent.testing.SimFixture.etcd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightFinding;
import io.olmstead.apispec.protocol.PreflightRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Preflight checks and {@code crdUpgradeSafety} on a simulated cluster with real bundles: etcd
 * 0.9.4's CRD is edited to require {@code spec.size} and allow at most 3 members, so a 5-member
 * EtcdCluster made under 0.9.2 breaks it.
 */
class PreflightIT {
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final String ETCD_CLUSTERS = "etcdclusters.etcd.database.coreos.com";
  private static final String V092 = "etcdoperator.v0.9.2";
  private static final String V094 = "etcdoperator.v0.9.4";
  private final Map<String, Preflight> answers = new ConcurrentHashMap<>();
  private SimFixture sim;

  @BeforeEach
  void start() throws Exception {
    sim =
        new SimFixture(
            SharedCatalogs.etcdWithCrd(
                V094,
                ETCD_CLUSTERS,
                crd -> {
                  ObjectNode spec =
                      (ObjectNode)
                          crd.path("spec")
                              .path("versions")
                              .get(0)
                              .path("schema")
                              .path("openAPIV3Schema")
                              .path("properties")
                              .path("spec");
                  spec.putObject("properties")
                      .putObject("size")
                      .put("type", "integer")
                      .put("maximum", 3);
                  spec.putArray("required").add("size");
                }));
  }

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  private static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(30)).ignoreExceptions();
  }

  private Preflight ask(String id) {
    sim.cluster
        .agent()
        .preflight(
            List.of(new PreflightRequest(id, "etcd", "0.9.4", null)),
            answer -> answers.put(answer.requestId(), answer));
    eventually().until(() -> answers.containsKey(id));
    return answers.get(id);
  }

  private void installWithCluster(SubscriptionToReconcile sub, int size) throws Exception {
    sim.desire(sub);
    awaitSucceeded(V092);
    sim.resources
        .kinds()
        .learn(sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS).orElseThrow());
    sim.resources.apply(etcdCluster(size));
  }

  @Test
  void preflightFailsNamingTheCustomResourceTheTargetSchemaRejectsAndWritesNothing()
      throws Exception {
    installWithCluster(etcd("0.9.2"), 5);

    Preflight failed = ask("pf-1");
    assertThat(failed.verdict()).isEqualTo(Preflight.FAIL);
    assertThat(failed.findings())
        .anySatisfy(
            f -> {
              assertThat(f.code()).isEqualTo("ExistingResourceInvalid");
              assertThat(f.severity()).isEqualTo(PreflightFinding.ERROR);
              assertThat(f.subject()).isEqualTo(ETCD_CLUSTERS);
              assertThat(f.message()).contains("etcd-ns/big");
            });
    // crdUpgradeSafety None (the default): the schema rules are not part of the verdict
    assertThat(failed.findings()).noneMatch(f -> f.code().equals("RequiredFieldAdded"));
    assertThat(objectsOf(V094)).isEmpty();
    assertThat(sim.sink.latest("etcd").orElseThrow().installedBundle()).isEqualTo(V092);

    sim.resources.apply(etcdCluster(3)); // valid under 0.9.4 now
    assertThat(ask("pf-2").verdict()).isEqualTo(Preflight.PASS);
    assertThat(ask("pf-1")).isSameAs(failed); // one answer per request id and connection
  }

  @Test
  void strictSafetyMakesABreakingSchemaChangeAnErrorAndWarnAWarning() throws Exception {
    installWithCluster(etcd("0.9.2").withCrdUpgradeSafety("Strict"), 3);
    Preflight strict = ask("pf-strict");
    assertThat(strict.verdict()).isEqualTo(Preflight.FAIL);
    assertThat(strict.findings())
        .anySatisfy(
            f -> {
              assertThat(f.code()).isEqualTo("RequiredFieldAdded");
              assertThat(f.severity()).isEqualTo(PreflightFinding.ERROR);
              assertThat(f.subject()).startsWith(ETCD_CLUSTERS + " ");
            });
    sim.desire(etcd("0.9.2").withCrdUpgradeSafety("Warn"));
    Preflight warn = ask("pf-warn");
    assertThat(warn.verdict()).isEqualTo(Preflight.WARN);
    assertThat(warn.findings())
        .allMatch(f -> PreflightFinding.WARNING.equals(f.severity()))
        .anyMatch(f -> f.code().equals("RequiredFieldAdded"));
  }

  @Test
  void preflightOfASubscriptionTheClusterDoesNotHaveFails() throws Exception {
    sim.desire();
    sim.cluster
        .agent()
        .preflight(
            List.of(new PreflightRequest("pf-x", "other", "1.0.0", null)),
            answer -> answers.put(answer.requestId(), answer));
    eventually().until(() -> answers.containsKey("pf-x"));
    assertThat(answers.get("pf-x").verdict()).isEqualTo(Preflight.FAIL);
    assertThat(answers.get("pf-x").findings())
        .extracting(PreflightFinding::code)
        .containsExactly("SubscriptionNotPlaced");
  }

  @Test
  void strictRefusesTheUpgradeNamingTheFindingAndWarnInstallsItReportingTheFindings()
      throws Exception {
    installWithCluster(etcd("0.9.2").withCrdUpgradeSafety("Strict"), 3);
    sim.desire(etcd("0.9.4").withCrdUpgradeSafety("Strict"));
    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.phase()).isEqualTo("Failed");
              assertThat(s.reason()).isEqualTo("CrdSchemaUnsafe");
              assertThat(s.message()).contains("RequiredFieldAdded: " + ETCD_CLUSTERS);
            });
    assertThat(objectsOf(V094)).isEmpty();
    assertThat(
            sim.label(
                sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator").orElseThrow(),
                ManagedLabels.BUNDLE))
        .isEqualTo(V092);

    sim.desire(etcd("0.9.4").withCrdUpgradeSafety("Warn"));
    awaitSucceeded(V094);
    SubscriptionStatus done = sim.sink.latest("etcd").orElseThrow();
    assertThat(done.condition("CrdSchemaWarnings"))
        .hasValueSatisfying(
            c -> {
              assertThat(c.reason()).isEqualTo("RequiredFieldAdded");
              assertThat(c.message()).contains(ETCD_CLUSTERS);
            });
  }

  @Test
  void withoutCrdUpgradeSafetyTheSameUpgradeInstallsWithoutSchemaFindingsAsBefore()
      throws Exception {
    installWithCluster(etcd("0.9.2"), 3);
    sim.desire(etcd("0.9.4"));
    awaitSucceeded(V094);
    assertThat(sim.sink.history("etcd"))
        .allSatisfy(s -> assertThat(s.condition("CrdSchemaWarnings")).isEmpty());
  }

  private static ObjectNode etcdCluster(int size) {
    ObjectNode cr =
        JsonNodeFactory.instance
            .objectNode()
            .put("apiVersion", "etcd.database.coreos.com/v1beta2")
            .put("kind", "EtcdCluster");
    cr.putObject("metadata").put("name", "big").put("namespace", "etcd-ns");
    cr.putObject("spec").put("size", size);
    return cr;
  }

  private void awaitSucceeded(String bundle) {
    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.installedBundle()).as(s.toString()).isEqualTo(bundle);
              assertThat(s.phase()).as(s.toString()).isEqualTo("Succeeded");
            });
  }

  private List<JsonNode> objectsOf(String bundle) {
    return ResourceKinds.COMMON.stream()
        .flatMap(k -> sim.list(k.apiVersion(), k.kind()).stream())
        .filter(o -> bundle.equals(sim.label(o, ManagedLabels.BUNDLE)))
        .toList();
  }
}
