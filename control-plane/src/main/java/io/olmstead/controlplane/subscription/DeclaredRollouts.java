package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.auth.Principal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;
import java.util.Optional;

/**
 * The rollout a declared version change starts when its subscription carries a {@code rolloutStrategy}; implemented
 * by the rollout component (which depends on this package, not the other way round).
 */
public interface DeclaredRollouts {

  /**
   * Checks a declared strategy as a rollout's {@code strategy} is checked, by the same rules for {@code caller} (a
   * team-scoped token names analysis templates, never inline queries); throws a 422 naming the field.
   */
  void check(JsonObject rolloutStrategy, Principal caller);

  /**
   * Starts, in the caller's transaction, a rollout of the stored {@code subscription} (already declaring its new
   * version) to {@code targetVersion} under its {@code rolloutStrategy}; empty when there is nothing to roll out (no
   * placed cluster, or every one runs the target already).
   */
  Future<Optional<String>> start(SqlConnection tx, Subscription subscription, String targetVersion, Principal caller);
}
