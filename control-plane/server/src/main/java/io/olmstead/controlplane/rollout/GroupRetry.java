package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Which targets a retry of a multi-target rollout starts again: all of them, in dependency order,
 * once none is active and one did not end {@code Succeeded} (one that ended
 * SucceededWithExceptions, RolledBack, Failed or Aborted); a consumer held because its provider
 * failed is released only by retrying the provider with it.
 */
final class GroupRetry {
  private GroupRetry() {}

  /**
   * The targets' rollouts (ids {@code ids}, dependency order) when {@code caller} may retry them;
   * 404 or 409 else.
   */
  static Future<List<Rollout>> load(
      RolloutStore store, SqlClient conn, String of, List<String> ids, Principal caller) {
    Future<List<Rollout>> out = Future.succeededFuture(new ArrayList<>());
    for (String id : ids) {
      out =
          out.compose(
              list ->
                  store
                      .load(conn, id)
                      .map(
                          found -> {
                            // the group is seen through the rollout asked for: a target of another
                            // team's subscription is a 404 too
                            list.add(RolloutCommands.visible(found, of, caller).rollout());
                            return list;
                          }));
    }
    return out.map(
        olds -> {
          refusal(of, olds, caller.teamScoped());
          return olds;
        });
  }

  /** Why the ended group {@code olds} may not be retried (thrown), or nothing. */
  static void refusal(String of, List<Rollout> olds, boolean teamScoped) {
    for (Rollout old : olds) {
      ApiException inline = AnalysisChecks.inlineQueriesOfATeam(old.strategy(), teamScoped);
      if (inline != null) {
        throw inline; // a team's retry measures as a team's rollout does: through templates only
      }
      if (old.phase().active()) {
        throw ApiException.conflict(
            "rollout "
                + of
                + " is still moving: target "
                + old.subscription()
                + " (rollout "
                + old.id()
                + ") is "
                + old.phase()
                + "; a rollout of several targets is retried once every target ended");
      }
    }
    if (olds.stream().allMatch(o -> o.phase() == Phase.Succeeded)) {
      throw ApiException.conflict("every target of rollout " + of + " Succeeded: nothing to retry");
    }
  }
}
