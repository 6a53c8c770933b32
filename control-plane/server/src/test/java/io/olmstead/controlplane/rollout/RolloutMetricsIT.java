package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Rollout metrics as Prometheus scrapes them: series present from the start, gauges cleared when a
 * rollout ends.
 */
class RolloutMetricsIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static TestControlPlane cp;

  @BeforeAll
  static void setUp() {
    cp = TestControlPlane.start(RolloutMetricsIT.class);
    vertx = Vertx.vertx();
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
  }

  @AfterAll
  static void tearDown() {
    vertx.close();
    cp.close();
  }

  private static String metrics() throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cp.port() + "/metrics"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static HollowFleet fleet(String prefix, String labelsJson, double failureRate) {
    return HollowFleet.start(
        vertx,
        new HollowFleet.Settings(
            1,
            URI.create("http://127.0.0.1:" + cp.port()),
            fx.enrollmentToken(1, labelsJson),
            prefix,
            Duration.ofMillis(300),
            failureRate,
            Map.of(),
            null,
            0));
  }

  @Test
  void everyOlmsteadMetricOnTheScrapeIsDocumentedInTheObservabilityManual() throws Exception {
    String manual = Files.readString(Paths.get("..", "..", "docs", "observability.md"));
    List<String> undocumented =
        metrics()
            .lines()
            .filter(l -> l.startsWith("olmstead_"))
            .map(l -> l.split("[{ ]", 2)[0])
            .distinct()
            .filter(
                name ->
                    !manual.contains("`" + name + "`")
                        && !manual.contains(
                            "`" + name.replaceFirst("_(bucket|count|sum|max)$", "") + "`"))
            .toList();
    assertThat(undocumented).as("olmstead_ series not named in docs/observability.md").isEmpty();
  }

  @Test
  void countersStartAtZeroAndAnEndedRolloutLeavesNoGaugeBehind() throws Exception {
    String start = metrics();
    assertThat(start)
        .contains(
            "olmstead_rollout_transitions_total{kind=\"Paused\"} 0.0",
            "olmstead_rollout_transitions_total{kind=\"Created\"} 0.0",
            "olmstead_rollout_transitions_total{kind=\"ClusterFailed\"} 0.0",
            "olmstead_rollout_commands_total{command=\"abort\"} 0.0",
            "olmstead_rollout_clusters_held{reason=\"WaitingForApproval\"} 0.0",
            "olmstead_rollout_clusters_held{reason=\"PreflightBlocked\"} 0.0",
            "olmstead_rollout_clusters_held{reason=\"Failed\"} 0.0",
            "olmstead_rollout_clusters_held{reason=\"Disconnected\"} 0.0",
            "olmstead_rollout_commands_total{command=\"pause\"} 0.0");

    Logger logger = (Logger) LoggerFactory.getLogger(RolloutTransitions.class);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    fx.subscription("mx", "fleet=mx", "0.9.2");
    HollowFleet bad = fleet("mx-bad-", "{\"fleet\":\"mx\",\"ring\":\"0\"}", 1.0);
    HollowFleet good = fleet("mx-good-", "{\"fleet\":\"mx\",\"ring\":\"1\"}", 0.0);
    try {
      // the failing agent fails every install, 0.9.2 as well: it reports, without running it
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                              "SELECT count(*) FROM subscription_status "
                                  + "WHERE subscription = 'mx'")
                          == 2
                      && fx.count(
                              "SELECT count(*) FROM subscription_status WHERE "
                                  + "subscription = 'mx' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                          == 1);
      HttpResponse<String> created =
          RolloutIT.call(
              cp.port(),
              "POST",
              "/rollouts",
              "{\"subscription\":\"mx\","
                  + "\"targetVersion\":\"0.9.4\",\"strategy\":{\"canary\":{\"count\":1},\"order\":[\"ring\"],"
                  + "\"progressDeadlineSeconds\":20}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      String id = new JsonObject(created.body()).getString("id");
      assertThat(metrics()).contains("olmstead_rollout_transitions_total{kind=\"Created\"} 1.0");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> metrics().contains("olmstead_rollout_paused_failures 1.0"));
      assertThat(metrics()).contains("olmstead_rollout_clusters{step=\"Failed\"} 1.0");
      // the failed canary under the reason the API gives it, in the one vocabulary
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(metrics())
                      .contains("olmstead_rollout_clusters_held{reason=\"Failed\"} 1.0"));

      HttpResponse<String> aborted =
          RolloutIT.call(cp.port(), "POST", "/rollouts/" + id + "/abort", null);
      assertThat(aborted.statusCode()).as(aborted.body()).isEqualTo(200);
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(metrics())
                      .contains(
                          "olmstead_rollout_paused_failures 0.0",
                          "olmstead_rollout_clusters{step=\"Failed\"} 0.0",
                          "olmstead_rollout_clusters{step=\"Pending\"} 0.0",
                          "olmstead_rollout_active 0.0",
                          "olmstead_rollout_clusters_held{reason=\"Failed\"} 0.0"));
      assertThat(metrics())
          .contains(
              "olmstead_rollout_commands_total{command=\"abort\"} 1.0",
              "olmstead_rollout_commands_total{command=\"pause\"} 0.0",
              "olmstead_rollout_transitions_total{kind=\"Paused\"} 1.0",
              // a command's transitions count like the engine's
              "olmstead_rollout_transitions_total{kind=\"Aborted\"} 1.0");
      assertThat(logged.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .anyMatch(
              m ->
                  m.startsWith(
                      "rollout " + id + " subscription mx: Progressing -> Paused (Paused: "))
          .anyMatch(
              m ->
                  m.startsWith(
                      "rollout "
                          + id
                          + " subscription mx: Paused -> Aborted (Aborted: aborted by "));
    } finally {
      logger.detachAppender(logged);
      bad.close();
      good.close();
    }
  }
}
