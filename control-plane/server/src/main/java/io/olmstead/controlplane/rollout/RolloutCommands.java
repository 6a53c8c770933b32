package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ETags;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rollout commands (pause, resume, abort, rollback, promote) as one transaction applies them.
 */
final class RolloutCommands {
  private final RolloutStore store;

  RolloutCommands(RolloutStore store) {
    this.store = store;
  }

  /**
   * Applies a command to rollout {@code id} or, when it is a target of a multi-target rollout, to
   * every target that takes it now (those that cannot are left as they are; 409 when none can), in
   * one transaction. {@code ifMatch}: the ETag rollout {@code id} must still have (412 otherwise,
   * and the transaction changes nothing).
   */
  Future<List<Applied>> apply(
      SqlConnection conn,
      String id,
      String command,
      String wave,
      Optional<String> ifMatch,
      Principal caller) {
    return store
        .groupIds(conn, id)
        .compose(
            ids -> {
              if (ids.isEmpty()) {
                return applyOne(conn, id, command, wave, ifMatch, caller, 5).map(List::of);
              }
              List<Applied> applied = new ArrayList<>();
              List<ApiException> refused = new ArrayList<>();
              Future<Void> chain = Future.succeededFuture();
              for (String target : ids) {
                chain =
                    chain.compose(
                        v ->
                            applyOne(
                                    conn,
                                    target,
                                    command,
                                    wave,
                                    target.equals(id) ? ifMatch : Optional.empty(),
                                    caller,
                                    5)
                                .map(
                                    a -> {
                                      applied.add(a);
                                      return (Void) null;
                                    })
                                .recover(
                                    e -> {
                                      if (e instanceof ApiException a && a.status() == 409) {
                                        refused.add(a);
                                        return Future.succeededFuture();
                                      }
                                      return Future.failedFuture(e);
                                    }));
              }
              return chain.compose(
                  v ->
                      applied.isEmpty()
                          ? Future.failedFuture(refused.get(0))
                          : Future.succeededFuture(applied));
            });
  }

  /**
   * Applies a command; when the engine wrote in between, reads again (each statement sees the
   * latest commit), which an {@code ifMatch} then refuses: the rollout is no longer the one the
   * caller read.
   */
  private Future<Applied> applyOne(
      SqlConnection conn,
      String id,
      String command,
      String wave,
      Optional<String> ifMatch,
      Principal caller,
      int attempts) {
    return store
        .load(conn, id)
        .compose(
            found -> {
              RolloutStore.Loaded loaded = visible(found, id, caller);
              ETags.check(ifMatch, loaded.version());
              StepResult result;
              try {
                result =
                    "promote".equals(command)
                        ? RolloutMachine.promote(loaded.rollout(), wave, caller.actor())
                        : RolloutMachine.command(loaded.rollout(), command, caller.actor());
              } catch (IllegalStateException e) {
                throw ApiException.conflict(e.getMessage());
              }
              return store
                  .save(
                      conn,
                      loaded.rollout(),
                      loaded.version(),
                      result.rollout(),
                      result.transitions(),
                      caller.actor())
                  .compose(
                      saved -> {
                        if (saved && "resume".equals(command)) {
                          // whoever resumes after a failed check has it measured again from the
                          // start
                          return conn.preparedQuery(AnalysisRunner.RESET)
                              .execute(Tuple.of(id))
                              .map(new Applied(loaded.rollout(), result));
                        }
                        if (saved) {
                          return Future.succeededFuture(new Applied(loaded.rollout(), result));
                        }
                        if (attempts <= 1) {
                          return Future.failedFuture(
                              ApiException.conflict("rollout " + id + " keeps changing; retry"));
                        }
                        return applyOne(conn, id, command, wave, ifMatch, caller, attempts - 1);
                      });
            });
  }

  /** A command as saved: the rollout before it and what it changed. */
  record Applied(RolloutModel.Rollout before, StepResult result) {}

  /**
   * The rollout when it exists and {@code caller} may see it (its subscription's team); 404
   * otherwise.
   */
  static RolloutStore.Loaded visible(
      Optional<RolloutStore.Loaded> found, String id, Principal caller) {
    return caller.visible(found, RolloutStore.Loaded::team, "rollout " + id + " does not exist");
  }
}
