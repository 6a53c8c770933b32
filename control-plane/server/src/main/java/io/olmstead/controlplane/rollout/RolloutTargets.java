package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The targets of a rollout request: {@code targets: [{subscription, targetVersion}, ...]} (1 to
 * {@value #MAX}), or the single {@code subscription} and {@code targetVersion} (one target). Pure
 * checks of the body's shape; what needs the database (visibility, catalog versions, dependency
 * order) is {@link TargetBundles}.
 */
final class RolloutTargets {
  static final int MAX = 10;

  private RolloutTargets() {}

  /**
   * One target: a subscription and the version to move it to; {@code index}: its place in the
   * request.
   */
  record Target(int index, String subscription, String targetVersion) {
    String field(String name) {
      return "/targets/" + index + "/" + name;
    }
  }

  /** Whether {@code body} names its targets in a {@code targets} array. */
  static boolean listed(JsonObject body) {
    return body != null && body.containsKey("targets");
  }

  /**
   * The listed targets of {@code body}, checked: count, no duplicate subscription, semantic
   * versions (else 422).
   */
  static List<Target> parse(JsonObject body) {
    if (body.containsKey("subscription") || body.containsKey("targetVersion")) {
      throw invalid("targets replaces subscription and targetVersion: send one form", "/targets");
    }
    JsonArray list = body.getJsonArray("targets");
    if (list == null || list.isEmpty() || list.size() > MAX) {
      throw invalid("targets lists 1 to " + MAX + " subscriptions", "/targets");
    }
    List<Target> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonObject t = list.getJsonObject(i);
      Target target = new Target(i, t.getString("subscription"), t.getString("targetVersion"));
      if (!seen.add(target.subscription())) {
        throw invalid(
            "subscription " + target.subscription() + " is listed twice",
            target.field("subscription"));
      }
      if (Version.tryParse(target.targetVersion()).isEmpty()) {
        throw invalid(
            "targetVersion " + target.targetVersion() + " is not a semantic version",
            target.field("targetVersion"));
      }
      out.add(target);
    }
    return out;
  }

  /**
   * The body of one target's rollout: its subscription and version, the request's strategy and
   * force.
   */
  static JsonObject single(JsonObject body, Target target) {
    JsonObject one = body.copy();
    one.remove("targets");
    return one.put("subscription", target.subscription())
        .put("targetVersion", target.targetVersion());
  }

  static ApiException invalid(String message, String field) {
    return ApiException.validationFailed(
        message, new JsonArray().add(new JsonObject().put("field", field).put("message", message)));
  }
}
