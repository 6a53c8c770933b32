package io.olmstead.controlplane.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.db.Notifications;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Turns {@code Authorization: Bearer <token>} into a {@link Principal}: SHA-256 of the token looked
 * up in {@code api_tokens}. Lookups are cached briefly so a busy client costs one query per few
 * seconds; a revocation clears the cache at once, here and (through the PostgreSQL notification
 * every replica listens to) on other replicas.
 */
public final class TokenAuthenticator {
  static final long CACHE_NANOS = TimeUnit.SECONDS.toNanos(5);
  private static final int MAX_CACHE_ENTRIES = 10_000;
  // OIDC tokens are JWTs, often over a kilobyte; API tokens are far shorter
  private static final int MAX_TOKEN_LENGTH = 8192;
  private static final String LOOKUP =
      """
      SELECT id, name, role, teams FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL
      """;

  private final Pool pool;
  private final OidcVerifier oidc;
  private final Clock clock;
  private final Cache<String, Cached> cache;

  /** A lookup's answer and how long it may be reused from when it was cached. */
  private record Cached(Optional<Principal> principal, long ttlNanos) {}

  /**
   * Each entry lives its own time (a short lookup lifetime, or an OIDC token's remaining life if
   * shorter).
   */
  private static final class PerEntryLifetime implements Expiry<String, Cached> {
    @Override
    public long expireAfterCreate(String key, Cached value, long currentTime) {
      return value.ttlNanos();
    }

    @Override
    public long expireAfterUpdate(
        String key, Cached value, long currentTime, long currentDuration) {
      return value.ttlNanos();
    }

    @Override
    public long expireAfterRead(String key, Cached value, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }

  public TokenAuthenticator(Pool pool) {
    this(pool, null, Clock.systemUTC());
  }

  /**
   * With single sign-on: a bearer JWT is verified against the issuer's cached keys when {@code
   * oidc} is not null.
   */
  public TokenAuthenticator(Pool pool, OidcIssuer oidc, Clock clock) {
    this.pool = pool;
    this.oidc = oidc == null ? null : new OidcVerifier(oidc, clock);
    this.clock = clock;
    // time as the injected clock tells it, so tests move it instead of waiting
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(MAX_CACHE_ENTRIES)
            .expireAfter(new PerEntryLifetime())
            .ticker(() -> nanos(clock.instant()))
            .executor(Runnable::run)
            .build();
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  /** The principal, or a failed future with a 401 {@link ApiException}. */
  public Future<Principal> authenticate(String authorization) {
    Optional<String> token = bearer(authorization);
    if (token.isEmpty()) {
      return Future.failedFuture(
          ApiException.unauthorized("a bearer token is required (Authorization: Bearer <token>)"));
    }
    byte[] hash = Tokens.hash(token.get());
    String key = HexFormat.of().formatHex(hash);
    Cached cached = cache.getIfPresent(key);
    if (cached != null) {
      return result(cached.principal);
    }
    if (oidc != null && looksLikeJwt(token.get())) {
      return oidc.verify(token.get())
          .map(
              verified -> {
                remember(
                    key,
                    Optional.of(verified.principal()),
                    ttlNanos(clock.instant(), verified.expiresAt()));
                return verified.principal();
              });
    }
    return pool.preparedQuery(LOOKUP)
        .execute(Tuple.of(hash))
        .map(
            rows -> {
              Optional<Principal> principal =
                  rows.size() == 0
                      ? Optional.empty()
                      : Optional.of(principal(rows.iterator().next()));
              remember(key, principal, CACHE_NANOS);
              return principal;
            })
        .compose(TokenAuthenticator::result);
  }

  /**
   * How long a verified OIDC token is cached: at most {@link #CACHE_NANOS}, never past its expiry.
   */
  static long ttlNanos(Instant now, Instant expiresAt) {
    Duration left = Duration.between(now, expiresAt);
    return left.compareTo(Duration.ofNanos(CACHE_NANOS)) >= 0
        ? CACHE_NANOS
        : Math.max(0, left.toNanos());
  }

  private void remember(String key, Optional<Principal> principal, long ttlNanos) {
    if (ttlNanos > 0) {
      cache.put(key, new Cached(principal, ttlNanos));
    }
  }

  /**
   * Three base64url parts, the first a JSON header ({@code eyJ}): API tokens never look like this.
   */
  static boolean looksLikeJwt(String token) {
    return token.startsWith("eyJ") && token.chars().filter(c -> c == '.').count() == 2;
  }

  /**
   * Forgets every cached lookup when any replica revokes a token (announced on {@link
   * Tokens#REVOKED_CHANNEL}), and each time that channel is listened to again, since a revocation
   * announced in between was lost.
   */
  public void followRevocations(Notifications notifications) {
    notifications.subscribe(
        Tokens.REVOKED_CHANNEL, tokenId -> invalidateAll(), this::invalidateAll);
  }

  /** Forgets every cached lookup (after a token is revoked). */
  public void invalidateAll() {
    cache.invalidateAll();
  }

  private static Future<Principal> result(Optional<Principal> principal) {
    return principal
        .map(Future::succeededFuture)
        .orElseGet(
            () ->
                Future.failedFuture(ApiException.unauthorized("the token is unknown or revoked")));
  }

  private static Principal principal(Row row) {
    String[] teams = row.getArrayOfStrings("teams");
    return new Principal(
        row.getUUID("id"),
        row.getString("name"),
        Role.fromWire(row.getString("role")).orElse(Role.VIEWER),
        teams == null ? List.of() : List.of(teams));
  }

  static Optional<String> bearer(String header) {
    if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    String token = header.substring(7).trim();
    if (token.isEmpty()
        || token.length() > MAX_TOKEN_LENGTH
        || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      return Optional.empty();
    }
    return Optional.of(token);
  }
}
