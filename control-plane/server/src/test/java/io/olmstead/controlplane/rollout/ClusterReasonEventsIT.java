package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster's reason changed by its agent alone, with no rollout (V58 and {@link RolloutEvents}): a
 * {@code cluster.reason} event on {@code GET /events} with the reason code when a subscription's
 * install becomes {@code Failed} or the agent goes away, and a null reason when that ends; a
 * team-scoped client sees it only for its teams' clusters and subscriptions.
 */
class ClusterReasonEventsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static TestControlPlane cp;
  private static RolloutFixtures fx;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(ClusterReasonEventsIT.class);
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
    fx.subscription("cr", "fleet=cr", "0.9.2");
    fx.update("UPDATE subscriptions SET team = 'alpha' WHERE name = 'cr'");
    fx.update(
        "INSERT INTO clusters (name, labels, status, last_seen) VALUES "
            + "('cr-alpha', '{\"fleet\":\"cr\",\"olmstead.io/team\":\"alpha\"}', 'connected', now() + interval '1 hour'), "
            + "('cr-beta', '{\"fleet\":\"cr\",\"olmstead.io/team\":\"beta\"}', 'connected', now() + interval '1 hour'), "
            + "('cr-beta-2', '{\"olmstead.io/team\":\"beta\"}', 'connected', now() + interval '1 hour')");
    fx.update(
        "INSERT INTO subscription_status (subscription, cluster, installed_version, target_version, phase, seq) "
            + "SELECT 'cr', n, '0.9.2', '0.9.2', 'Succeeded', 1 FROM unnest(ARRAY['cr-alpha', 'cr-beta']) n");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void anAgentsFailureAndDisconnectionOutsideARolloutAreEventsWithTheirCodeToTheClustersTeamOnly()
      throws Exception {
    BlockingQueue<JsonObject> admin = follow(ADMIN);
    BlockingQueue<JsonObject> alpha =
        follow(api.createToken(ADMIN, "alpha-viewer", "viewer", List.of("alpha")));
    BlockingQueue<JsonObject> beta =
        follow(api.createToken(ADMIN, "beta-viewer", "viewer", List.of("beta")));

    fx.update(
        "UPDATE subscription_status SET phase = 'Failed', reason = 'InstallCheckFailed', message = 'not ready', "
            + "seq = 2 WHERE subscription = 'cr' AND cluster = 'cr-alpha'");
    Predicate<JsonObject> failedAlpha =
        e ->
            "cr-alpha".equals(e.getString("id"))
                && "cr".equals(e.getString("subscription"))
                && e.getJsonObject("reason") != null;
    JsonObject failed = next(admin, failedAlpha);
    assertThat(failed.getJsonObject("reason").getString("code")).isEqualTo("Failed");
    assertThat(failed.getJsonObject("reason").getString("subject")).isEqualTo("InstallCheckFailed");
    assertThat(failed.getJsonObject("reason").getString("at")).isNotNull();
    assertThat(next(alpha, failedAlpha)).isNotNull();

    // the install recovers: the reason is gone
    fx.update(
        "UPDATE subscription_status SET phase = 'Succeeded', reason = NULL, message = NULL, seq = 3 "
            + "WHERE subscription = 'cr' AND cluster = 'cr-alpha'");
    assertThat(
            next(admin, e -> "cr-alpha".equals(e.getString("id")) && e.getValue("reason") == null)
                .getString("subscription"))
        .isEqualTo("cr");

    // beta's cluster runs alpha's subscription: its failure is for clients that may see both teams
    fx.update(
        "UPDATE subscription_status SET phase = 'Failed', reason = 'ImagePullBackOff', seq = 2 "
            + "WHERE subscription = 'cr' AND cluster = 'cr-beta'");
    assertThat(
            next(
                admin,
                e -> "cr-beta".equals(e.getString("id")) && e.getJsonObject("reason") != null))
        .isNotNull();

    // the agent goes away: Disconnected, since it was last seen
    fx.update(
        "UPDATE clusters SET status = 'disconnected', last_seen = '2026-11-27T08:00:00Z' WHERE name = 'cr-alpha'");
    JsonObject away =
        next(
            alpha, e -> "cr-alpha".equals(e.getString("id")) && e.getValue("subscription") == null);
    assertThat(away.getJsonObject("reason").getString("code")).isEqualTo("Disconnected");
    assertThat(away.getJsonObject("reason").getString("at")).isEqualTo("2026-11-27T08:00:00.000Z");
    fx.update("UPDATE clusters SET status = 'disconnected' WHERE name = 'cr-beta'");
    assertThat(
            next(
                admin,
                e -> "cr-beta".equals(e.getString("id")) && e.getValue("subscription") == null))
        .isNotNull();

    // a marker the beta client may see, a cluster.reason sent after everything above (they go out
    // oldest first)
    fx.update("UPDATE clusters SET status = 'disconnected' WHERE name = 'cr-beta-2'");
    List<JsonObject> betaSaw = new ArrayList<>();
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (betaSaw.stream().noneMatch(e -> "cr-beta-2".equals(e.getString("id")))
        && System.nanoTime() < until) {
      JsonObject e = beta.poll(1, TimeUnit.SECONDS);
      if (e != null && RolloutEvents.CLUSTER_REASON.equals(e.getString("type"))) {
        betaSaw.add(e);
      }
    }
    assertThat(betaSaw)
        .as("beta's events")
        .anyMatch(e -> "cr-beta-2".equals(e.getString("id")))
        .anyMatch(e -> "cr-beta".equals(e.getString("id")) && e.getValue("subscription") == null)
        .noneMatch(e -> "cr-alpha".equals(e.getString("id")))
        .as("alpha's subscription failing on beta's cluster")
        .noneMatch(e -> "cr".equals(e.getString("subscription")));
  }

  @Test
  void aFailureOfAnActiveRolloutsClusterIsOnlyTheRolloutsEvent() throws Exception {
    fx.subscription("cr2", "fleet=cr2", "0.9.2");
    fx.update(
        "INSERT INTO clusters (name, labels, status, last_seen) VALUES "
            + "('cr2-rolling', '{\"fleet\":\"cr2\"}', 'connected', now() + interval '1 hour'), "
            + "('cr2-alone', '{\"fleet\":\"cr2\"}', 'connected', now() + interval '1 hour')");
    fx.update(
        "INSERT INTO subscription_status (subscription, cluster, installed_version, target_version, phase, seq) "
            + "SELECT 'cr2', n, '0.9.2', '0.9.2', 'Succeeded', 1 FROM unnest(ARRAY['cr2-rolling', 'cr2-alone']) n");
    // a paused rollout of cr2 holds cr2-rolling (the engine leaves a paused rollout where it is)
    fx.update(
        "INSERT INTO rollouts (id, subscription, target_version, strategy, state, created_by) VALUES "
            + "('cr2-r', 'cr2', '0.9.3', '{}', 'Paused', 'test')");
    fx.update(
        "INSERT INTO rollout_clusters (rollout_id, cluster, wave, step) VALUES ('cr2-r', 'cr2-rolling', 0, 'Progressing')");
    BlockingQueue<JsonObject> admin = follow(ADMIN);

    fx.update(
        "UPDATE subscription_status SET phase = 'Failed', reason = 'InstallCheckFailed', seq = 2 "
            + "WHERE subscription = 'cr2' AND cluster = 'cr2-rolling'");
    fx.update(
        "UPDATE subscription_status SET phase = 'Failed', reason = 'InstallCheckFailed', seq = 2 "
            + "WHERE subscription = 'cr2' AND cluster = 'cr2-alone'");
    // cr2-alone's event comes after cr2-rolling's would have (they go out oldest first)
    List<JsonObject> seen = new ArrayList<>();
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (seen.stream().noneMatch(e -> "cr2-alone".equals(e.getString("id")))
        && System.nanoTime() < until) {
      JsonObject e = admin.poll(1, TimeUnit.SECONDS);
      if (e != null && RolloutEvents.CLUSTER_REASON.equals(e.getString("type"))) {
        seen.add(e);
      }
    }
    assertThat(seen)
        .anyMatch(
            e -> "cr2-alone".equals(e.getString("id")) && "cr2".equals(e.getString("subscription")))
        .as("the rollout's cluster")
        .noneMatch(e -> "cr2-rolling".equals(e.getString("id")));
  }

  private static BlockingQueue<JsonObject> follow(String token) throws Exception {
    BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
    HttpResponse<Stream<String>> stream =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/events?follow=true"))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    Thread reader =
        new Thread(
            () -> {
              try {
                stream
                    .body()
                    .filter(l -> l.startsWith("data: "))
                    .forEach(l -> events.add(new JsonObject(l.substring(6))));
              } catch (RuntimeException e) {
                // closed at the end of the test
              }
            },
            "sse-reader");
    reader.setDaemon(true);
    reader.start();
    return events;
  }

  /**
   * The first cluster.reason event (or one {@code match} accepts) within 20 s, the others before it
   * skipped.
   */
  private static JsonObject next(BlockingQueue<JsonObject> events, Predicate<JsonObject> match)
      throws Exception {
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < until) {
      JsonObject e = events.poll(1, TimeUnit.SECONDS);
      if (e != null && match.test(e)) {
        return e;
      }
    }
    throw new AssertionError("no matching event within 20 s");
  }
}
