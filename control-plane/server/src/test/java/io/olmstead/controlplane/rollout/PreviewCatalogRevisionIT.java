package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The preview's preflight verdicts belong to the catalog revision they were checked against: a new
 * revision asks the clusters again at once instead of showing the old verdict until the renewal
 * delay has passed.
 */
class PreviewCatalogRevisionIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String BODY = "{\"subscription\":\"pv\",\"targetVersion\":\"0.9.4\"}";
  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures fx;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(PreviewCatalogRevisionIT.class);
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
    fx.subscription("pv", "fleet=pv", "0.9.2");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status) VALUES "
            + "('pv-1', '{\"fleet\":\"pv\"}', 'connected')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_bundle, "
            + "installed_version, phase, seq) VALUES ('pv', 'pv-1', 'etcdoperator.v0.9.2', '0.9.2', 'Succeeded', 1)");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static String verdict() {
    ApiClient.Response preview =
        api.json("POST", "/api/v1/rollouts/preview", ADMIN, new JsonObject(BODY));
    assertThat(preview.status()).as(preview.body()).isEqualTo(200);
    return preview
        .json()
        .getJsonArray("waves")
        .getJsonObject(0)
        .getJsonArray("clusters")
        .getJsonObject(0)
        .getJsonObject("preflight")
        .getString("verdict");
  }

  @Test
  void aNewCatalogRevisionAsksTheClustersAgainInsteadOfShowingTheOldVerdict() {
    assertThat(verdict()).isEqualTo("Pending");
    // the agent answers the check against revision 1
    assertThat(
            fx.update(
                "UPDATE preflight_checks SET answered_at = now(), verdict = 'Fail' WHERE subscription = 'pv' "
                    + "AND cluster = 'pv-1'"))
        .isEqualTo(1);
    assertThat(verdict()).isEqualTo("Fail");

    // revision 2 (same content) becomes current: revision 1's verdict no longer holds
    fx.update(
        "INSERT INTO catalog_revisions (catalog, revision, digest, validation, package_count, channel_count, "
            + "bundle_count, uploaded_by) SELECT catalog, 2, digest, validation, package_count, channel_count, "
            + "bundle_count, uploaded_by FROM catalog_revisions WHERE catalog = 'demo' AND revision = 1");
    fx.update(
        "INSERT INTO catalog_packages (catalog, revision, package, default_channel) SELECT catalog, 2, package, "
            + "default_channel FROM catalog_packages WHERE catalog = 'demo' AND revision = 1");
    fx.update(
        "INSERT INTO catalog_channels (catalog, revision, package, channel, head, entries) SELECT catalog, 2, "
            + "package, channel, head, entries FROM catalog_channels WHERE catalog = 'demo' AND revision = 1");
    fx.update(
        "INSERT INTO catalog_bundles (catalog, revision, package, bundle, version, channels) SELECT catalog, 2, "
            + "package, bundle, version, channels FROM catalog_bundles WHERE catalog = 'demo' AND revision = 1");
    fx.update("UPDATE catalogs SET current_revision = 2 WHERE name = 'demo'");

    assertThat(verdict()).isEqualTo("Pending");
    assertThat(
            fx.count(
                "SELECT count(*) FROM preflight_checks WHERE subscription = 'pv' AND cluster = 'pv-1' "
                    + "AND answered_at IS NULL AND requester = 'preview:demo@2'"))
        .isEqualTo(1);
    assertThat(
            fx.count(
                "SELECT count(*) FROM preflight_checks WHERE subscription = 'pv' "
                    + "AND requester <> 'preview:demo@2'"))
        .isZero();
  }
}
