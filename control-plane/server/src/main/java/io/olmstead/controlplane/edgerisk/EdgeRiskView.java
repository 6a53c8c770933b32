package io.olmstead.controlplane.edgerisk;

import io.olmstead.controlplane.edgerisk.EdgeRiskStore.Acceptance;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/**
 * A risk as the API shows it to one caller (pure). Evidence of the caller's teams names its
 * clusters, their facts and the agents' messages; evidence of other teams is only counted ({@code
 * otherTeams}), and their acceptances are left out: the facts of the risk, shared by all its
 * evidence, are all another team learns.
 */
final class EdgeRiskView {
  private EdgeRiskView() {}

  /**
   * The risk {@code id} as {@code shown} to a caller who may see the teams {@code visible} accepts,
   * with the acceptances of it.
   */
  static JsonObject toJson(
      String id,
      EdgeRiskStore.Shown shown,
      List<Acceptance> acceptances,
      Predicate<String> visible,
      Instant now,
      EdgeRiskRule.Params params) {
    Evidence first = shown.first();
    List<EdgeRiskRule.Observation> observations = new ArrayList<>();
    JsonArray own = new JsonArray();
    long otherFailures = 0;
    long otherSuccesses = 0;
    for (Evidence e : shown.own()) {
      observations.add(e.observation());
      own.add(
          new JsonObject()
              .put("team", e.team().isEmpty() ? null : e.team())
              .put("cluster", e.cluster())
              .put("outcome", e.failed() ? "Failed" : "Succeeded")
              .put("detail", e.detail())
              .put("source", e.source())
              .put("observedAt", e.at().toString()));
    }
    for (EdgeRiskStore.Tally t : shown.others()) {
      observations.addAll(
          Collections.nCopies(
              Math.toIntExact(t.count()), new EdgeRiskRule.Observation(t.failed(), t.at())));
      if (t.failed()) {
        otherFailures += t.count();
      } else {
        otherSuccesses += t.count();
      }
    }
    EdgeRiskRule.Assessment a = EdgeRiskRule.assess(observations, now, null, params);
    JsonArray accepted = new JsonArray();
    for (Acceptance acc : acceptances) {
      if ("*".equals(acc.team()) || visible.test(acc.team())) {
        accepted.add(
            new JsonObject()
                .put("team", acc.team().isEmpty() ? null : acc.team())
                .put("acceptedBy", acc.by())
                .put("acceptedAt", acc.at().toString())
                .put("comment", acc.comment()));
      }
    }
    return new JsonObject()
        .put("id", id)
        .put("package", first.pkg())
        .put("fromVersion", first.from())
        .put("toVersion", first.to())
        .put("facts", first.facts().toJson())
        .put("held", a.verdict() != EdgeRiskRule.Verdict.CLEAR)
        .put("failures", a.failures())
        .put("successes", a.successes())
        .put("failureWeight", round(a.failureWeight()))
        .put("successWeight", round(a.successWeight()))
        .put("lastFailureAt", a.lastFailure() == null ? null : a.lastFailure().toString())
        .put("evidence", own)
        .put(
            "otherTeams",
            new JsonObject().put("failures", otherFailures).put("successes", otherSuccesses))
        .put("acceptances", accepted);
  }

  private static double round(double weight) {
    return Math.round(weight * 1000) / 1000.0;
  }
}
