package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.hypershift.HypershiftFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@code dev --simulate-hypershift} end to end: the simulated management cluster and operator, the
 * real HyperShift watcher of a control plane on PostgreSQL pointed at its kubeconfig, and the
 * simulated hosted agents. HostedClusters become connected clusters labelled with their version, an
 * upgrade changes the label, a deletion retires the cluster and stops its agent and guest. Skipped,
 * saying so, without {@code ../shared/hypershift}. Vert.x's log is captured from the start: nothing
 * in dev may make a Vertx on a Vert.x thread (fabric8's clients each make one).
 */
class DevHypershiftIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static DevHypershift sim;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static final Logger VERTX_LOG =
      (Logger) LoggerFactory.getLogger("io.vertx.core.impl.VertxImpl");
  private static final ListAppender<ILoggingEvent> vertxLog = new ListAppender<>();

  @BeforeAll
  static void start() throws Exception {
    vertxLog.start();
    VERTX_LOG.addAppender(vertxLog);
    sim =
        DevHypershift.start(
            Files.createTempDirectory("dev-hypershift"),
            HypershiftFixtures.dir(),
            2,
            Duration.ofMillis(500),
            Duration.ofMillis(200));
    cp =
        TestControlPlane.start(
            TestDatabase.create(DevHypershiftIT.class),
            Map.of(HypershiftSettings.MANAGEMENT_KUBECONFIG, sim.kubeconfig().toString()));
    sim.connectAgents(cp.controlPlane().pool(), URI.create(cp.baseUrl()));
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    VERTX_LOG.detachAppender(vertxLog);
    if (sim != null) {
      sim.close();
    }
    if (cp != null) {
      cp.close();
    }
  }

  @Test
  void hostedClustersAreEnrolledConnectedUpgradedAndRetired() {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              for (String name : new String[] {"clusters-hc-01", "clusters-hc-02"}) {
                JsonObject cluster = cluster(name);
                assertThat(cluster.getString("status")).as(name).isEqualTo("connected");
                assertThat(
                        cluster.getJsonObject("labels").getString("hypershift.olmstead.io/version"))
                    .isEqualTo("4.19.7");
                assertThat(cluster.getJsonObject("labels").getString("olmstead.io/source"))
                    .isEqualTo("hypershift");
              }
            });
    assertThat(sim.agents().running())
        .containsExactlyInAnyOrder("clusters-hc-01", "clusters-hc-02");

    KubernetesClient kube = sim.management().client();
    var hostedClusters =
        kube.genericKubernetesResources(SimulatedManagementCluster.HOSTED_CLUSTERS)
            .inNamespace("clusters");
    hostedClusters
        .withName("hc-01")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"release\":{\"image\":\"quay.io/openshift-release-dev/ocp-release:4.19.9-multi\"}}}");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        cluster("clusters-hc-01")
                            .getJsonObject("labels")
                            .getString("hypershift.olmstead.io/version"))
                    .isEqualTo("4.19.9"));
    GenericKubernetesResource upgraded = hostedClusters.withName("hc-01").get();
    assertThat((Object) upgraded.get("status", "version", "desired", "version"))
        .isEqualTo("4.19.9");

    hostedClusters.withName("hc-02").delete();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(hostedClusters.withName("hc-02").get()).isNull();
              assertThat(cluster("clusters-hc-02").getString("status")).isEqualTo("retired");
              assertThat(sim.agents().running()).containsExactly("clusters-hc-01");
              assertThat(sim.operator().guests()).isEqualTo(1);
            });
    assertThat(cluster("clusters-hc-01").getString("status")).isEqualTo("connected");
  }

  @Test
  void noVertxIsMadeOnAVertxThreadWhileTheWatcherAndThePoolStart() {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(cluster("clusters-hc-01").getString("status"))
                    .isIn("connected", "retired"));
    assertThat(cp.controlPlane().hypershift().leader()).isTrue();
    assertThat(vertxLog.list)
        .as("Vert.x warnings")
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(m -> m.contains("already on a Vert.x context"));
  }

  private static JsonObject cluster(String name) {
    ApiClient.Response response = api.get("/api/v1/clusters/" + name, ADMIN);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json();
  }
}
