package io.olmstead.controlplane.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.CatalogView.PackageView;
import io.olmstead.controlplane.subscription.SubscriptionSpec.Placement;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy.Kind;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The maturity hold as a table: the channel 1.0.0 (clean), 1.1.0 (an RBAC wildcard), 1.2.0 (a CRD
 * on apiextensions.k8s.io/v1beta1, removed in 1.22) and 1.3.0 (head, both), against requirements,
 * version policies and the cluster's Kubernetes version.
 */
class MaturityHoldTest {
  private static final ChannelView STABLE =
      new ChannelView(
          "stable",
          "op.v1.3.0",
          Map.of(
              "op.v1.0.0",
              v("1.0.0"),
              "op.v1.1.0",
              v("1.1.0"),
              "op.v1.2.0",
              v("1.2.0"),
              "op.v1.3.0",
              v("1.3.0")));
  private static final Map<String, JsonObject> REPORTS =
      Map.of(
          "op.v1.0.0", report("op.v1.0.0"),
          "op.v1.1.0", report("op.v1.1.0", wildcard()),
          "op.v1.2.0", report("op.v1.2.0", removed()),
          "op.v1.3.0", report("op.v1.3.0", wildcard(), removed()));
  private static final String FORBID_WILDCARD =
      "{\"maturity\":{\"forbid\":[\"security/rbac-wildcard\"]}}";

  private static Version v(String text) {
    return Version.tryParse(text).orElseThrow();
  }

  private static JsonObject wildcard() {
    return new JsonObject()
        .put("rule", "security/rbac-wildcard")
        .put("severity", "error")
        .put("message", "ClusterServiceVersion op: * in verbs");
  }

  private static JsonObject removed() {
    return new JsonObject()
        .put("rule", "portability/removed-api")
        .put("severity", "error")
        .put("removedIn", "1.22")
        .put(
            "message",
            "CustomResourceDefinition ops.example.com uses apiextensions.k8s.io/v1beta1, removed in "
                + "Kubernetes 1.22");
  }

  private static JsonObject report(String bundle, JsonObject... findings) {
    return new JsonObject()
        .put("bundle", bundle)
        .put("evidencedCapability", "Basic Install")
        .put("findings", new JsonArray(List.of((Object[]) findings)));
  }

  private static SubscriptionSpec spec(String policy, String requirements) {
    String[] p = policy.split("=", 2);
    return new SubscriptionSpec(
        "s",
        "cat",
        "op",
        "stable",
        "ns",
        List.of(),
        new Placement("", List.of()),
        new VersionPolicy(Kind.valueOf(p[0].toUpperCase()), p[1]),
        SubscriptionSpec.AUTOMATIC,
        null,
        null,
        null,
        requirements == null || requirements.isEmpty() ? null : new JsonObject(requirements));
  }

  @ParameterizedTest(name = "{0} {1} on {2} -> {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // policy       | requirements                                          | kube     |
        // maxVersion | reason has
        "follow=channel | -                                                     | -        | 1.3.0      | -",
        "follow=channel | "
            + FORBID_WILDCARD
            + "                               | -        | 1.2.0      | op.v1.3.0 breaks security/rbac-wildcard",
        "follow=channel | {\"maturity\":{\"maxSeverity\":\"warning\"}}          | -        | 1.0.0      | op.v1.2.0 breaks portability/removed-api",
        "follow=channel | {\"maturity\":{\"minCapability\":\"Full Lifecycle\"}} | -        | -          | no bundle of channel stable complies",
        "follow=channel | -                                                     | v1.21.14 | 1.3.0      | -",
        "follow=channel | -                                                     | v1.29.3  | 1.1.0      | removed in Kubernetes 1.22; the cluster runs v1.29.3",
        "follow=channel | "
            + FORBID_WILDCARD
            + "                               | v1.29.3  | 1.0.0      | held at op.v1.0.0",
        "range=<1.3.0   | "
            + FORBID_WILDCARD
            + "                               | -        | 1.2.0      | -",
        "range=>=1.1.0  | "
            + FORBID_WILDCARD
            + "                               | v1.29.3  | -          | op.v1.1.0 breaks security/rbac-wildcard",
        "pin=1.1.0      | "
            + FORBID_WILDCARD
            + "                               | -        | -          | op.v1.1.0 breaks",
        "pin=1.2.0      | "
            + FORBID_WILDCARD
            + "                               | -        | 1.2.0      | -",
      })
  void holdsAtTheHighestBundleThePolicyAllows(
      String policy, String requirements, String kube, String maxVersion, String reason) {
    SubscriptionSpec spec = spec(policy, requirements);
    MaturityHold.Held held =
        MaturityHold.apply(
            spec, STABLE, DesiredState.ceiling(spec.version(), STABLE), REPORTS::get, kube);
    assertThat(held.ceiling().maxVersion()).isEqualTo(maxVersion);
    if (reason == null) {
      assertThat(held.reason()).isNull();
    } else {
      assertThat(held.reason()).contains(reason);
    }
  }

  @Test
  void aHoldNamesEverySkippedBundleWithItsRulesAndStartsAFreshInstallAtTheHeldBundle() {
    SubscriptionSpec spec = spec("follow=channel", FORBID_WILDCARD);
    MaturityHold.Held held =
        MaturityHold.apply(
            spec, STABLE, DesiredState.ceiling(spec.version(), STABLE), REPORTS::get, "v1.29.3");
    assertThat(held.ceiling().startingBundle()).isEqualTo("op.v1.0.0");
    assertThat(held.reason())
        .isEqualTo(
            "held at op.v1.0.0: op.v1.3.0 breaks security/rbac-wildcard, "
                + "portability/removed-api (uses APIs removed in Kubernetes 1.22; the cluster runs v1.29.3); "
                + "op.v1.2.0 breaks portability/removed-api (uses APIs removed in Kubernetes 1.22; the cluster runs "
                + "v1.29.3); op.v1.1.0 breaks security/rbac-wildcard");
  }

  @Test
  void aBundleWithoutAStoredReportIsNotHeld() {
    SubscriptionSpec spec = spec("follow=channel", FORBID_WILDCARD);
    MaturityHold.Held held =
        MaturityHold.apply(
            spec, STABLE, DesiredState.ceiling(spec.version(), STABLE), bundle -> null, "v1.29.3");
    assertThat(held.ceiling().maxVersion()).isEqualTo("1.3.0");
    assertThat(held.reason()).isNull();
  }

  @Test
  void theDesiredStateCarriesTheHoldAndTakesRolloutApprovalsOnlyAtOrBelowIt() {
    SubscriptionSpec spec = spec("follow=channel", FORBID_WILDCARD);
    CatalogView catalog =
        new CatalogView(
            "cat",
            "sha256:1",
            Map.of("op", new PackageView("op", "stable", Map.of("stable", STABLE))));
    Subscription s = new Subscription(spec, 1, 1, "admin", null, null);
    List<ComputedSubscription> desired =
        DesiredState.forCluster(
            new DesiredState.Cluster("c1", Map.of(), null),
            List.of(s),
            Map.of("cat", catalog),
            (c, p, b) -> REPORTS.get(b));
    assertThat(desired.get(0).maxVersion()).isEqualTo("1.2.0");
    assertThat(desired.get(0).startingBundle()).isEqualTo("op.v1.2.0");
    assertThat(desired.get(0).blockedReason())
        .isEqualTo("held at op.v1.2.0: op.v1.3.0 breaks security/rbac-wildcard");

    Map<String, String> past = new HashMap<>(Map.of("s", "1.3.0"));
    assertThat(DesiredState.withApprovedVersions(desired, past).get(0).maxVersion())
        .isEqualTo("1.2.0");
    assertThat(DesiredState.withApprovedVersions(desired, Map.of("s", "1.0.0")).get(0).maxVersion())
        .isEqualTo("1.0.0");
  }
}
