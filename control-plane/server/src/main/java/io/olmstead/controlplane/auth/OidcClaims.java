package io.olmstead.controlplane.auth;

import io.olmstead.controlplane.problem.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Pure checks of an OIDC token's claims as the issuer sent them (numbers, not yet dates), and the
 * identity they name: the stable one is the issuer and {@code sub}; {@code preferred_username} (or
 * {@code email}) is only shown beside it.
 */
final class OidcClaims {
  static final Duration SKEW = Duration.ofSeconds(60);
  // 9999-12-31T23:59:59Z: a NumericDate past it is no date a token can mean (and overflows
  // milliseconds in a long)
  private static final long LAST_SECOND = 253_402_300_799L;

  private OidcClaims() {}

  /**
   * The caller: an id from issuer and subject, the audit actor (that id and the name shown) and the
   * name shown.
   */
  record Identity(UUID id, String actor, String name) {}

  /**
   * When the token expires; 401 naming the claim when {@code exp}, {@code nbf} or {@code iat} is
   * not a date, or now is outside them (with {@link #SKEW}).
   */
  static Instant validity(Map<String, Object> claims, Instant now) {
    Instant exp = date(claims, "exp").orElseThrow(() -> invalid("has no exp claim"));
    if (!exp.plus(SKEW).isAfter(now)) {
      throw invalid("has expired (exp)");
    }
    date(claims, "nbf")
        .filter(nbf -> nbf.minus(SKEW).isAfter(now))
        .ifPresent(
            nbf -> {
              throw invalid("is not valid yet (nbf)");
            });
    date(claims, "iat");
    return exp;
  }

  private static Optional<Instant> date(Map<String, Object> claims, String name) {
    Object value = claims.get(name);
    if (value == null) {
      return Optional.empty();
    }
    if (!(value instanceof Number n) || !(n.doubleValue() >= 0 && n.doubleValue() <= LAST_SECOND)) {
      throw invalid("has a " + name + " claim that is not a date up to the year 9999");
    }
    return Optional.of(Instant.ofEpochSecond(n.longValue()));
  }

  /** The caller's identity; 401 naming {@code sub} when it is missing or blank. */
  static Identity identity(String issuer, Map<String, Object> claims) {
    if (!(claims.get("sub") instanceof String subject) || subject.isBlank()) {
      throw invalid("has no sub claim, or an empty one (the subject identifies the caller)");
    }
    String shown =
        sanitize(firstNonBlank(claims.get("preferred_username"), claims.get("email"), subject));
    byte[] key = (issuer + "\n" + subject).getBytes(StandardCharsets.UTF_8);
    String stable = HexFormat.of().formatHex(sha256(key), 0, 8);
    return new Identity(
        UUID.nameUUIDFromBytes(("oidc|" + issuer + "|" + subject).getBytes(StandardCharsets.UTF_8)),
        "token:oidc:" + stable + " (" + shown + ")",
        "oidc:" + shown);
  }

  static ApiException invalid(String problem) {
    return ApiException.unauthorized("the OIDC token " + problem);
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }

  private static String firstNonBlank(Object... values) {
    for (Object v : values) {
      if (v instanceof String s && !s.isBlank()) {
        return s;
      }
    }
    return "unknown";
  }

  private static String sanitize(String name) {
    String cleaned = name.replaceAll("[^A-Za-z0-9@._+-]", "_");
    return cleaned.length() > 100 ? cleaned.substring(0, 100) : cleaned;
  }
}
