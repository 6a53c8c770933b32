package io.olmstead.controlplane.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.dev.DevSimulation;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.registry.TestRegistry;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The flows around the unpacker, on a real registry that goes down and comes back: a rollout's
 * preview lists the target bundles not unpacked, creation is refused (409 BundleNotUnpacked with
 * Retry-After while retrying, 422 BundleUnpackFailed with the registry's message once Failed),
 * clusters report BundleUnpackFailed; with the registry back, unpacking a package's channel on
 * request makes the clusters install and the rollout start.
 */
class UnpackFlowIT {
  static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  static final String CHANNEL = "singlenamespace-alpha";
  static TestRegistry registry;
  static TestControlPlane cp;
  static ApiClient api;
  static DevSimulation simulation;

  @BeforeAll
  static void start() throws Exception {
    registry = TestRegistry.start();
    cp =
        TestControlPlane.start(
            TestDatabase.create(UnpackFlowIT.class),
            Map.of(
                RegistrySettings.INSECURE, registry.host(), RegistrySettings.SWEEP_SECONDS, "1"));
    api = new ApiClient(cp);
    ImageInstallEndToEndIT.etcdImagesCatalog(registry, api, "images");
    simulation =
        DevSimulation.start(
            cp.controlPlane().vertx(),
            cp.controlPlane().pool(),
            URI.create(cp.baseUrl()),
            1,
            List.of(),
            Duration.ofMillis(300));
  }

  @AfterAll
  static void stop() {
    if (simulation != null) {
      simulation.close();
    }
    if (cp != null) {
      cp.close();
    }
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void rolloutsWaitForTheirBundleImagesAndAFailedUnpackIsRetriedOnRequest() throws Exception {
    registry.stopServing();
    assertThat(api.json("PUT", "/api/v1/subscriptions/etcd", ADMIN, subscription("0.9.2")).status())
        .isEqualTo(201);

    // the preview names the target's bundle, not unpacked, with its state
    JsonObject preview =
        api.json("POST", "/api/v1/rollouts/preview", ADMIN, rollout("0.9.2")).json();
    JsonObject target = only(preview.getJsonArray("bundlesNotUnpacked"), "etcdoperator.v0.9.2");
    assertThat(target.getString("state")).isIn("NotRequested", "Pending", "Unpacking");
    assertThat(target.getString("digest")).startsWith("sha256:");
    String digest = target.getString("digest");

    // creation asks for the unpack and is refused while it runs or waits for a retry
    Response refused = api.json("POST", "/api/v1/rollouts", ADMIN, rollout("0.9.2"));
    assertThat(refused.status()).as(refused.body()).isEqualTo(409);
    assertThat(refused.json().getString("reason")).isEqualTo("BundleNotUnpacked");
    assertThat(refused.json().getString("state")).isIn("Pending", "Unpacking");
    assertThat(Integer.parseInt(refused.header("Retry-After"))).isPositive();
    assertThat(api.get("/api/v1/rollouts", ADMIN).items()).isEmpty();

    // the registry does not answer: retried with backoff (attempts grow, the message is kept), then
    // Failed
    JsonObject retrying =
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .until(
                () -> bundle(digest),
                b -> b.getInteger("attempts", 0) >= 2 && "Pending".equals(b.getString("state")));
    assertThat(retrying.getString("message")).isNotBlank();
    assertThat(retrying.getString("nextAttemptAt")).isNotNull();
    // the later retries wait 2, 4 and 8 s (a sweep of 1 s): the test makes each one due as soon as
    // it is scheduled,
    // as that much time passing would, instead of waiting for it
    RolloutFixtures fx = new RolloutFixtures(cp.database());
    JsonObject failed =
        await()
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () -> {
                  fx.update(
                      "UPDATE bundle_images SET next_attempt_at = now() WHERE digest = ? AND state = 'Pending' "
                          + "AND next_attempt_at > now()",
                      digest);
                  return bundle(digest);
                },
                b -> "Failed".equals(b.getString("state")));
    assertThat(failed.getInteger("attempts")).isGreaterThan(2);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(
            UnpackFlowIT::status,
            items ->
                items.size() == 1
                    && "Failed".equals(items.getJsonObject(0).getString("phase"))
                    && "BundleUnpackFailed".equals(items.getJsonObject(0).getString("reason"))
                    && items
                        .getJsonObject(0)
                        .getString("message", "")
                        .contains(failed.getString("message")));
    Response unpackFailed = api.json("POST", "/api/v1/rollouts", ADMIN, rollout("0.9.2"));
    assertThat(unpackFailed.status()).as(unpackFailed.body()).isEqualTo(422);
    assertThat(unpackFailed.json().getString("reason")).isEqualTo("BundleUnpackFailed");
    assertThat(unpackFailed.json().getString("detail")).contains(failed.getString("message"));

    // back: unpacking the channel on request retries the Failed images; the cluster installs; the
    // rollout starts
    registry.restart();
    Response queued =
        api.json(
            "POST",
            "/api/v1/catalogs/images/packages/etcd/unpack",
            ADMIN,
            new JsonObject().put("channel", CHANNEL));
    assertThat(queued.status()).as(queued.body()).isEqualTo(202);
    assertThat(
            queued.json().getJsonArray("bundles").stream()
                .map(JsonObject.class::cast)
                .map(b -> b.getString("bundle")))
        .contains("etcdoperator.v0.9.2", "etcdoperator.v0.9.4")
        .doesNotContain("etcdoperator.v0.6.1");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> "Unpacked".equals(bundle(digest).getString("state")));
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .until(
            UnpackFlowIT::status,
            items ->
                items.size() == 1
                    && "Succeeded".equals(items.getJsonObject(0).getString("phase"))
                    && "0.9.2".equals(items.getJsonObject(0).getString("installedVersion")));
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                api.json("POST", "/api/v1/rollouts/preview", ADMIN, rollout("0.9.4"))
                    .json()
                    .getJsonArray("bundlesNotUnpacked")
                    .isEmpty());
    Response started = api.json("POST", "/api/v1/rollouts", ADMIN, rollout("0.9.4"));
    assertThat(started.status()).as(started.body()).isEqualTo(201);
  }

  @Test
  void unpackingAPackageOnRequestNamesUnknownPackagesAndChannelsAndIsFleetWide() {
    assertThat(
            api.json(
                    "POST", "/api/v1/catalogs/images/packages/nope/unpack", ADMIN, new JsonObject())
                .status())
        .isEqualTo(404);
    Response channel =
        api.json(
            "POST",
            "/api/v1/catalogs/images/packages/etcd/unpack",
            ADMIN,
            new JsonObject().put("channel", "nope"));
    assertThat(channel.status()).isEqualTo(404);
    assertThat(channel.json().getString("detail")).contains("channel nope");
    assertThat(
            api.json("POST", "/api/v1/catalogs/ghost/packages/etcd/unpack", ADMIN, new JsonObject())
                .status())
        .isEqualTo(404);
    // catalogs are shared by every team: a team-scoped operator may not queue their pulls
    String teamOperator = api.createToken(ADMIN, "team-operator", "operator", List.of("alpha"));
    assertThat(
            api.json(
                    "POST",
                    "/api/v1/catalogs/images/packages/etcd/unpack",
                    teamOperator,
                    new JsonObject())
                .status())
        .isEqualTo(403);
    String viewer = api.createToken(ADMIN, "viewer", "viewer", List.of());
    assertThat(
            api.json(
                    "POST",
                    "/api/v1/catalogs/images/packages/etcd/unpack",
                    viewer,
                    new JsonObject())
                .status())
        .isEqualTo(403);
    Response alpha =
        api.json(
            "POST",
            "/api/v1/catalogs/images/packages/etcd/unpack",
            ADMIN,
            new JsonObject().put("channel", "alpha"));
    assertThat(alpha.status()).as(alpha.body()).isEqualTo(202);
    assertThat(
            alpha.json().getJsonArray("bundles").stream()
                .map(JsonObject.class::cast)
                .map(b -> b.getString("bundle")))
        .containsExactly("etcdoperator.v0.6.1");
    JsonArray audit = api.get("/api/v1/audit?limit=200", ADMIN).items();
    assertThat(audit.stream().map(JsonObject.class::cast).map(a -> a.getString("action")))
        .contains("catalog.package.unpack");
  }

  @Test
  void anUploadWhoseBundleHasNeitherObjectsNorImageIsRefusedOrWarnedThatItCannotBeInstalled() {
    String content =
        "{\"schema\":\"olm.package\",\"name\":\"bare\",\"defaultChannel\":\"stable\"}\n"
            + "{\"schema\":\"olm.channel\",\"package\":\"bare\",\"name\":\"stable\",\"entries\":[{\"name\":\"bare.v1.0.0\"}]}\n"
            + "{\"schema\":\"olm.bundle\",\"package\":\"bare\",\"name\":\"bare.v1.0.0\",\"properties\":["
            + "{\"type\":\"olm.package\",\"value\":{\"packageName\":\"bare\",\"version\":\"1.0.0\"}}]}\n";
    assertThat(api.json("PUT", "/api/v1/catalogs/bare", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    Response strict =
        api.send(
            "POST",
            "/api/v1/catalogs/bare/revisions",
            ADMIN,
            "application/x-ndjson",
            content.getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(strict.status()).isEqualTo(422);
    assertThat(strict.body()).contains("bare.v1.0.0").contains("bundle image must be set");
    Response lenient =
        api.send(
            "POST",
            "/api/v1/catalogs/bare/revisions?validation=lenient",
            ADMIN,
            "application/x-ndjson",
            content.getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertThat(lenient.status()).as(lenient.body()).isEqualTo(201);
    assertThat(lenient.json().getJsonArray("warnings").encode())
        .contains("bare.v1.0.0")
        .contains("bundle image must be set");
  }

  static JsonObject only(JsonArray bundles, String name) {
    return bundles.stream()
        .map(JsonObject.class::cast)
        .filter(b -> name.equals(b.getString("bundle")))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " not in " + bundles.encode()));
  }

  static JsonArray status() {
    return api.get("/api/v1/subscriptions/etcd/status", ADMIN).json().getJsonArray("items");
  }

  static JsonObject bundle(String digest) {
    Response r = api.get("/api/v1/bundles/" + digest, ADMIN);
    return r.status() == 200 ? r.json() : new JsonObject();
  }

  static JsonObject rollout(String version) {
    return new JsonObject().put("subscription", "etcd").put("targetVersion", version);
  }

  static JsonObject subscription(String pin) {
    return new JsonObject()
        .put("catalog", "images")
        .put("package", "etcd")
        .put("channel", CHANNEL)
        .put("namespace", "etcd")
        .put("targetNamespaces", new JsonArray().add("etcd"))
        .put("placement", new JsonObject().put("selector", "env=dev"))
        .put("version", new JsonObject().put("pin", pin))
        .put("approval", "Automatic");
  }
}
