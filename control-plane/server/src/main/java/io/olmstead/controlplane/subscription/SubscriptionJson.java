package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.subscription.SubscriptionSpec.Placement;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Subscriptions to and from the API's JSON (the request body was validated against the spec's
 * schema already).
 */
public final class SubscriptionJson {
  private SubscriptionJson() {}

  public static SubscriptionSpec spec(String name, JsonObject body) {
    JsonObject placement = body.getJsonObject("placement", new JsonObject());
    JsonObject removal = body.getJsonObject("removal", new JsonObject());
    List<String> targets = strings(body.getJsonArray("targetNamespaces"));
    String mode =
        OperatorGroup.declared(body.getString("installMode"), body.getString("namespace"), targets);
    return new SubscriptionSpec(
        name,
        body.getString("catalog"),
        body.getString("package"),
        body.getString("channel"),
        body.getString("namespace"),
        targets,
        new Placement(placement.getString("selector"), strings(placement.getJsonArray("clusters"))),
        policy(body.getJsonObject("version", new JsonObject())),
        body.getString("approval"),
        body.getJsonObject("config", new JsonObject()),
        body.getString("team"),
        removal.getString("crds", SubscriptionSpec.KEEP),
        body.getJsonObject("requirements"),
        body.getString("crdUpgradeSafety", SubscriptionSpec.SAFETY_NONE),
        mode,
        body.getJsonObject("rolloutStrategy"));
  }

  static VersionPolicy policy(JsonObject version) {
    if (version.containsKey("pin")) {
      return new VersionPolicy(VersionPolicy.Kind.PIN, version.getString("pin"));
    }
    if (version.containsKey("range")) {
      return new VersionPolicy(VersionPolicy.Kind.RANGE, version.getString("range"));
    }
    return new VersionPolicy(VersionPolicy.Kind.FOLLOW, version.getString("follow", "channel"));
  }

  public static JsonObject toJson(Subscription s) {
    SubscriptionSpec spec = s.spec();
    JsonObject placement = new JsonObject();
    if (spec.placement().selector() != null) {
      placement.put("selector", spec.placement().selector());
    }
    placement.put("clusters", new JsonArray(new ArrayList<>(spec.placement().clusters())));
    return new JsonObject()
        .put("name", spec.name())
        .put("catalog", spec.catalog())
        .put("package", spec.packageName())
        .put("channel", spec.channel())
        .put("namespace", spec.namespace())
        .put("installMode", spec.installMode())
        .put("targetNamespaces", new JsonArray(new ArrayList<>(spec.targetNamespaces())))
        .put("placement", placement)
        .put("version", spec.version().toJson())
        .put("approval", spec.approval())
        .put("config", spec.config())
        .put("team", spec.team())
        .put("removal", new JsonObject().put("crds", spec.crdRemoval()))
        .put("crdUpgradeSafety", spec.crdUpgradeSafety())
        .put("generation", s.generation())
        .put("resourceVersion", s.resourceVersion())
        .put("createdBy", s.createdBy())
        .put("createdAt", s.createdAt() == null ? null : s.createdAt().toString())
        .put("updatedAt", s.updatedAt() == null ? null : s.updatedAt().toString())
        .mergeIn(
            spec.requirements() == null
                ? new JsonObject()
                : new JsonObject().put("requirements", spec.requirements()))
        .mergeIn(
            spec.rolloutStrategy() == null
                ? new JsonObject()
                : new JsonObject().put("rolloutStrategy", spec.rolloutStrategy()))
        .mergeIn(
            s.applied() == null
                ? new JsonObject()
                : new JsonObject().put("appliedVersion", s.applied().toJson()));
  }

  private static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    if (array != null) {
      array.forEach(v -> out.add(String.valueOf(v)));
    }
    return out;
  }
}
