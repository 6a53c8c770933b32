package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.auth.Principal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The rollout a declared version change starts when its subscription carries a {@code
 * rolloutStrategy}; implemented by the rollout component (which depends on this package, not the
 * other way round).
 */
public interface DeclaredRollouts {

  /**
   * Checks a declared strategy of a subscription of {@code team} as a rollout's {@code strategy} is
   * checked, by the same rules for {@code caller}, before any transaction: its shape (thrown), a
   * team-scoped token names analysis templates, never inline queries (thrown), every template it
   * names exists for {@code team} (its own or a fleet-wide one) and the configured Prometheus
   * parses its inline queries (the future). Every PUT with a {@code rolloutStrategy} is checked,
   * whether or not it changes the version: what is stored runs later. A refusal is a 422 naming the
   * field under {@code /rolloutStrategy}.
   */
  Future<Void> check(JsonObject rolloutStrategy, String team, Principal caller);

  /**
   * Starts, in the caller's transaction, a rollout of the stored {@code subscription} (already
   * declaring its new version) to {@code targetVersion} under its {@code rolloutStrategy}; empty
   * when there is nothing to roll out (no placed cluster, or every one runs the target already).
   * Refusals name {@code /version} and {@code /rolloutStrategy/...}. Work a refusal leaves for
   * after the transaction rolled back (asking for the target's bundle images to be unpacked, on a
   * connection of its own) is handed to {@code afterRollback}.
   */
  Future<Optional<String>> start(
      SqlConnection tx,
      Subscription subscription,
      String targetVersion,
      Principal caller,
      Consumer<Supplier<Future<Void>>> afterRollback);
}
