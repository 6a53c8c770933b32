package io.olmstead.controlplane.impact;

import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * What moving from one installed bundle to the target changes (pure): RBAC, CRDs, webhooks and
 * APIs, computed once per installed version and shared by every cluster that runs it. {@code
 * affectedCrds}: the CRDs whose existing custom resources are touched, with {@link
 * CrdDiff#BREAKING} or {@link CrdDiff#SCHEMA_CHANGED}.
 */
public record Transition(
    String fromVersion,
    BundleManifests from,
    BundleManifests to,
    JsonObject json,
    Map<String, String> affectedCrds,
    boolean gainsPermissions,
    boolean losesPermissions,
    boolean webhooksChange,
    boolean removesApis) {

  /** The diff of {@code from} (or {@link BundleManifests#NONE}) to {@code to}. */
  public static Transition of(
      String fromVersion, BundleManifests from, BundleManifests to, ImpactLimits limits) {
    JsonObject json =
        new JsonObject()
            .put("fromVersion", fromVersion)
            .put("fromBundle", from.bundle())
            .put("toBundle", to.bundle())
            .put(
                "maxOpenShiftVersion",
                new JsonObject()
                    .put("from", from.maxOpenShiftVersion())
                    .put("to", to.maxOpenShiftVersion()));
    String unavailable = from.unavailable() != null ? from.unavailable() : to.unavailable();
    if (unavailable != null) {
      return new Transition(
          fromVersion,
          from,
          to,
          json.put("unavailable", unavailable),
          Map.of(),
          false,
          false,
          false,
          false);
    }
    JsonObject rbac = RbacDiff.diff(from.csv(), to.csv(), limits.entries());
    CrdDiff.Result crds = CrdDiff.diff(from.crds(), to.crds(), limits);
    JsonObject webhooks = WebhookDiff.diff(from.csv(), to.csv(), limits.entries());
    JsonObject apis = ApiDiff.diff(from.csv(), to.csv(), limits.entries());
    json.put("rbac", rbac).put("crds", crds.json()).put("webhooks", webhooks).put("apis", apis);
    boolean webhooksChange =
        !webhooks.getJsonArray("added").isEmpty()
            || !webhooks.getJsonArray("removed").isEmpty()
            || !webhooks.getJsonArray("changed").isEmpty();
    return new Transition(
        fromVersion,
        from,
        to,
        json,
        crds.affected(),
        !rbac.getJsonArray("added").isEmpty(),
        !rbac.getJsonArray("removed").isEmpty(),
        webhooksChange,
        !apis.getJsonArray("removed").isEmpty());
  }
}
