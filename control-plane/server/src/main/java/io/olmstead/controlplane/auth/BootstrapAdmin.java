package io.olmstead.controlplane.auth;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;

/**
 * Makes sure an admin token exists at start: the configured one replaces the stored hash; without
 * one, a token is generated only when none was ever stored, and returned so the caller can print it
 * once.
 */
public final class BootstrapAdmin {
  public static final String NAME = "bootstrap-admin";

  private static final String UPSERT =
      """
      INSERT INTO api_tokens (name, role, teams, token_hash, created_by)
      VALUES ($1, 'admin', '{}', $2, 'system')
      ON CONFLICT (name) WHERE revoked_at IS NULL DO UPDATE SET token_hash = EXCLUDED.token_hash, role = 'admin',
          teams = '{}'
      """;
  private static final String INSERT_IF_ABSENT =
      """
      INSERT INTO api_tokens (name, role, teams, token_hash, created_by)
      VALUES ($1, 'admin', '{}', $2, 'system')
      ON CONFLICT (name) WHERE revoked_at IS NULL DO NOTHING
      """;

  private BootstrapAdmin() {}

  /**
   * The outcome: a freshly generated token to show once, or empty when the token was given or
   * already stored.
   */
  public static Future<Optional<String>> ensure(Pool pool, Optional<String> configured) {
    if (configured.isPresent()) {
      return pool.preparedQuery(UPSERT)
          .execute(Tuple.of(NAME, Tokens.hash(configured.get())))
          .map(rows -> Optional.empty());
    }
    String generated = Tokens.generate("olm_admin_");
    return pool.preparedQuery(INSERT_IF_ABSENT)
        .execute(Tuple.of(NAME, Tokens.hash(generated)))
        .map(rows -> rows.rowCount() == 1 ? Optional.of(generated) : Optional.empty());
  }
}
