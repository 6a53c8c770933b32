package io.olmstead.controlplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.olmstead.controlplane.DeployManifestsTest;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.HostedAgentSettings;
import io.olmstead.controlplane.hypershift.percluster.HostedAgentObjects;
import io.olmstead.controlplane.hypershift.pool.PoolFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control plane, agent and pool containers start as shipped: each image's entrypoint (the Jib
 * configuration in the poms, with the packaged shaded jar as classpath) run by {@link PodSandbox}
 * as its manifest declares it (user, read-only root with only its volumes writable, its environment
 * with secrets given test values) until it serves its probes. The sandbox shares the host's
 * network, so ports are free ones and the in-cluster API is a mock server.
 */
class ShippedPodsStartIT {
  private static final Path DEPLOY = JibImage.ROOT.resolve("deploy");
  private static final Path CONTROL_PLANE_JAR = Path.of("target", "olmstead-control-plane.jar");
  private static final Path AGENT_JAR =
      JibImage.ROOT.resolve("cluster-agent/agent/target/olmstead-agent.jar");
  private static final KubernetesSerialization KUBE = new KubernetesSerialization();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final Duration START = Duration.ofSeconds(120);
  private static KubernetesMockServer api;

  @BeforeAll
  static void inClusterApi() throws Exception {
    api = PoolFixtures.crudServer();
    PoolFixtures.prepareManagement(api.createClient());
  }

  @AfterAll
  static void stopApi() {
    if (api != null) {
      api.destroy();
    }
  }

  @Test
  void controlPlaneServesOnAReadOnlyRootWritingOnlyToItsVolumes(@TempDir Path work)
      throws Exception {
    assumeRunnable(CONTROL_PLANE_JAR);
    DatabaseSettings db = TestDatabase.create(getClass());
    int port = TestControlPlane.freePort();
    Pod pod = pod(DEPLOY.resolve("control-plane"), "Deployment");
    var kubelet =
        new PodSandbox.Kubelet(
            "olmstead-control-plane-0",
            Map.of(
                "olmstead-database/url",
                "postgresql://" + db.describe(),
                "olmstead-database/user",
                db.user(),
                "olmstead-database/password",
                Optional.ofNullable(db.password()).orElse(""),
                "olmstead-admin/token",
                "olm_admin_test_token_0123456789abcdef"),
            Map.of(),
            Map.of("OLMSTEAD_PORT", String.valueOf(port), "KUBERNETES_MASTER", apiUrl()));
    runsUntilServing(
        JibImage.of("control-plane/server"),
        CONTROL_PLANE_JAR,
        pod,
        kubelet,
        work,
        "http://127.0.0.1:" + port + "/readyz",
        "Olmstead control plane serving on");
  }

  @Test
  void agentRunsOnAReadOnlyRootWritingOnlyToItsVolumes(@TempDir Path work) throws Exception {
    assumeRunnable(AGENT_JAR);
    int port = TestControlPlane.freePort();
    var kubelet =
        new PodSandbox.Kubelet(
            "olmstead-agent-0",
            Map.of("olmstead-enrollment/token", "olm_enroll_test"),
            Map.of(),
            Map.of(
                "OLMSTEAD_AGENT_HEALTH_PORT", String.valueOf(port), "KUBERNETES_MASTER", apiUrl()));
    runsUntilServing(
        JibImage.of("cluster-agent/agent"),
        AGENT_JAR,
        pod(DEPLOY.resolve("agent"), "Deployment"),
        kubelet,
        work,
        "http://127.0.0.1:" + port + "/healthz",
        "agent running:");
  }

  @Test
  void poolReplicaRunsOnAReadOnlyRootWritingOnlyToItsVolumes(@TempDir Path work) throws Exception {
    assumeRunnable(AGENT_JAR);
    int port = TestControlPlane.freePort();
    var kubelet =
        new PodSandbox.Kubelet(
            "olmstead-agent-pool-0",
            Map.of("olmstead-agent-pool/token", "olm_pool_test"),
            Map.of(),
            Map.of(
                "OLMSTEAD_AGENT_HEALTH_PORT", String.valueOf(port), "KUBERNETES_MASTER", apiUrl()));
    runsUntilServing(
        JibImage.of("cluster-agent/agent"),
        AGENT_JAR,
        pod(DEPLOY.resolve("hypershift"), "StatefulSet"),
        kubelet,
        work,
        "http://127.0.0.1:" + port + "/healthz",
        "pool replica running:");
  }

  @Test
  void perClusterHostedAgentRunsOnAReadOnlyRootWritingOnlyToItsVolumes(@TempDir Path work)
      throws Exception {
    assumeRunnable(AGENT_JAR);
    int port = TestControlPlane.freePort();
    List<HasMetadata> objects = hostedAgentObjects();
    Map<String, String> secretFiles = new LinkedHashMap<>();
    find(objects, Secret.class)
        .getData()
        .forEach(
            (key, value) ->
                secretFiles.put(
                    key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
    PodSpec spec = find(objects, Deployment.class).getSpec().getTemplate().getSpec();
    var kubelet =
        new PodSandbox.Kubelet(
            "olmstead-agent-0",
            Map.of(),
            Map.of(HostedAgentObjects.NAME, secretFiles),
            Map.of("OLMSTEAD_AGENT_HEALTH_PORT", String.valueOf(port)));
    runsUntilServing(
        JibImage.of("cluster-agent/agent"),
        AGENT_JAR,
        new Pod(spec, spec.getContainers().get(0)),
        kubelet,
        work,
        "http://127.0.0.1:" + port + "/healthz",
        "agent running:");
  }

  @Test
  void everyContainerSizesItsHeapFromItsMemoryLimitAndExitsOnOutOfMemory() throws Exception {
    PodSpec hosted = find(hostedAgentObjects(), Deployment.class).getSpec().getTemplate().getSpec();
    JibImage agent = JibImage.of("cluster-agent/agent");
    Map<Pod, JibImage> pods =
        Map.of(
            pod(DEPLOY.resolve("control-plane"), "Deployment"),
            JibImage.of("control-plane/server"),
            pod(DEPLOY.resolve("agent"), "Deployment"),
            agent,
            pod(DEPLOY.resolve("hypershift"), "StatefulSet"),
            agent,
            new Pod(hosted, hosted.getContainers().get(0)),
            agent);
    for (Map.Entry<Pod, JibImage> entry : pods.entrySet()) {
      JibImage image = entry.getValue();
      Container container = entry.getKey().container();
      assertThat(image.jvmFlags())
          .as(container.getName())
          .contains("-XX:+ExitOnOutOfMemoryError")
          .anySatisfy(flag -> assertThat(flag).startsWith("-XX:MaxRAMPercentage="));
      long limit =
          Quantity.getAmountInBytes(container.getResources().getLimits().get("memory"))
              .longValueExact();
      // a container's limit cannot be set here; -XX:MaxRAM is the physical memory the JVM's
      // ergonomics size from
      List<String> command =
          new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
      command.addAll(image.jvmFlags());
      command.addAll(List.of("-XX:MaxRAM=" + limit, "-XX:+PrintFlagsFinal", "-version"));
      Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
      String flags = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(java.waitFor()).as(flags).isZero();
      long heap = Long.parseLong(flag(flags, "MaxHeapSize"));
      double percent = Double.parseDouble(flag(flags, "MaxRAMPercentage"));
      // the share of the limit, rounded to the collector's alignment (a few MiB)
      assertThat(heap)
          .as(container.getName() + ": heap of a %d MiB limit", limit >> 20)
          .isCloseTo((long) (limit * percent / 100), within(4L << 20));
      assertThat(limit - heap)
          .as(container.getName() + ": memory left outside the heap")
          .isGreaterThanOrEqualTo(96L << 20);
      assertThat(flag(flags, "ExitOnOutOfMemoryError")).isEqualTo("true");
    }
  }

  /** One container of a workload in a deploy/ folder. */
  record Pod(PodSpec spec, Container container) {}

  private static Pod pod(Path dir, String kind) throws Exception {
    JsonNode template =
        DeployManifestsTest.manifests(dir).stream()
            .filter(d -> kind.equals(d.path("kind").asText()))
            .findFirst()
            .orElseThrow()
            .path("spec")
            .path("template");
    PodSpec spec = KUBE.convertValue(template, PodTemplateSpec.class).getSpec();
    assertThat(spec.getContainers()).hasSize(1);
    return new Pod(spec, spec.getContainers().get(0));
  }

  private static List<HasMetadata> hostedAgentObjects() {
    return HostedAgentObjects.of(
        "guest-1",
        "clusters-guest-1",
        "olm_agent_test_credential",
        HostedAgentObjects.GuestKubeconfig.copy(PoolFixtures.kubeconfig(apiUrl())),
        new HostedAgentSettings(
            Optional.of("ghcr.io/olmstead/agent:test"), "http://127.0.0.1:1", "olmstead-system"));
  }

  private static <T extends HasMetadata> T find(List<HasMetadata> objects, Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
  }

  private static String apiUrl() {
    return "http://127.0.0.1:" + api.getPort();
  }

  private static void assumeRunnable(Path jar) {
    assumeThat(PodSandbox.unavailable())
        .as("skipped: %s", PodSandbox.unavailable().orElse(""))
        .isEmpty();
    assumeThat(Files.isRegularFile(jar))
        .as("skipped: %s is not built (run ./mvnw package)", jar.toAbsolutePath())
        .isTrue();
  }

  /**
   * Runs the container until its probe answers 200 and it logged {@code started}; then its JVM must
   * carry the image's flags, and its Vert.x cache be in a writable volume.
   */
  private static void runsUntilServing(
      JibImage image,
      Path jar,
      Pod pod,
      PodSandbox.Kubelet kubelet,
      Path work,
      String probe,
      String started)
      throws Exception {
    try (PodSandbox sandbox =
        PodSandbox.start(image, jar, pod.spec(), pod.container(), kubelet, work)) {
      awaitServing(sandbox, () -> status(probe) == 200 && sandbox.output().contains(started));
      assertWroteOnlyToItsVolumes(sandbox, image);
    }
  }

  private static void awaitServing(PodSandbox sandbox, Callable<Boolean> serving) {
    try {
      await()
          .atMost(START)
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .failFast("the container exited", () -> !sandbox.isAlive())
          .until(serving);
    } catch (ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
      throw new AssertionError(e.getMessage() + "; it printed:\n" + sandbox.output(), e);
    }
  }

  /**
   * The JVM ran with the image's flags, and its temporary files and Vert.x cache are in a writable
   * volume.
   */
  private static void assertWroteOnlyToItsVolumes(PodSandbox sandbox, JibImage image)
      throws Exception {
    assertThat(sandbox.javaArguments()).containsSubsequence(image.jvmFlags());
    String cacheBase = image.systemProperty("vertx.cacheDirBase").orElseThrow();
    Map.Entry<String, Path> volume =
        sandbox.writable().entrySet().stream()
            .filter(e -> cacheBase.startsWith(e.getKey() + "/"))
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no writable volume holds vertx.cacheDirBase "
                            + cacheBase
                            + ": "
                            + sandbox.writable().keySet()));
    String name = Path.of(cacheBase).getFileName().toString();
    Path inVolume =
        volume
            .getValue()
            .resolve(Path.of(volume.getKey()).relativize(Path.of(cacheBase)))
            .getParent();
    try (var files = Files.list(inVolume)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .anySatisfy(f -> assertThat(f).startsWith(name));
    }
    assertThat(sandbox.output()).doesNotContain("Unable to create folder");
  }

  private static int status(String url) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static String flag(String printFlagsFinal, String name) {
    Matcher m = Pattern.compile("\\s" + name + "\\s+= (\\S+)").matcher(printFlagsFinal);
    assertThat(m.find()).as(name + " in\n" + printFlagsFinal).isTrue();
    return m.group(1);
  }
}
