package io.olmstead.controlplane.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Secrets handed to users and agents: generated with 256 bits of entropy and stored only as their
 * SHA-256 digest (a slow password hash buys nothing for random tokens of this length).
 */
public final class Tokens {
  /**
   * Announces a revoked API token's id at commit, so open event streams of it close on every
   * replica at once.
   */
  public static final String REVOKED_CHANNEL = "olmstead_token_revoked";

  private static final SecureRandom RANDOM = new SecureRandom();

  private Tokens() {}

  /** A new secret such as {@code olm_admin_3q2...}; the prefix tells what kind of token it is. */
  public static String generate(String prefix) {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The digest stored at rest. */
  public static byte[] hash(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
