package io.olmstead.controlplane.http;

import io.vertx.core.shareddata.Shareable;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals cursors so that only this server's replicas can make or read them: AES-CTR hides the key
 * inside (ids of objects a caller may not see), HMAC-SHA256 over nonce and ciphertext proves the
 * server made it (encrypt-then-MAC). Both keys derive from one shared secret ({@code server_keys}).
 * Format: base64url(nonce 16 | ciphertext | tag 16).
 */
final class CursorSealer implements Shareable {
  private static final int NONCE = 16;
  private static final int TAG = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec encryption;
  private final SecretKeySpec authentication;

  CursorSealer(byte[] secret) {
    if (secret.length < 32) {
      throw new IllegalArgumentException("the cursor secret needs at least 32 bytes");
    }
    this.encryption =
        new SecretKeySpec(
            Arrays.copyOf(
                hmac(
                    new SecretKeySpec(secret, "HmacSHA256"),
                    "olmstead cursor encryption".getBytes(StandardCharsets.UTF_8)),
                16),
            "AES");
    this.authentication =
        new SecretKeySpec(
            hmac(
                new SecretKeySpec(secret, "HmacSHA256"),
                "olmstead cursor authentication".getBytes(StandardCharsets.UTF_8)),
            "HmacSHA256");
  }

  String seal(byte[] payload) {
    byte[] out = new byte[NONCE + payload.length + TAG];
    byte[] nonce = new byte[NONCE];
    RANDOM.nextBytes(nonce);
    System.arraycopy(nonce, 0, out, 0, NONCE);
    System.arraycopy(crypt(nonce, payload), 0, out, NONCE, payload.length);
    System.arraycopy(
        hmac(authentication, Arrays.copyOf(out, NONCE + payload.length)),
        0,
        out,
        NONCE + payload.length,
        TAG);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
  }

  /** The payload, or empty when the cursor is not well-formed or not sealed with this key. */
  Optional<byte[]> open(String cursor) {
    byte[] raw;
    try {
      raw = Base64.getUrlDecoder().decode(cursor);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (raw.length <= NONCE + TAG) {
      return Optional.empty();
    }
    int body = raw.length - TAG;
    byte[] expected = Arrays.copyOf(hmac(authentication, Arrays.copyOf(raw, body)), TAG);
    if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(raw, body, raw.length))) {
      return Optional.empty();
    }
    return Optional.of(crypt(Arrays.copyOf(raw, NONCE), Arrays.copyOfRange(raw, NONCE, body)));
  }

  private byte[] crypt(byte[] nonce, byte[] data) {
    try {
      Cipher cipher = Cipher.getInstance("AES/CTR/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, encryption, new IvParameterSpec(nonce));
      return cipher.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/CTR is not available", e);
    }
  }

  private static byte[] hmac(SecretKeySpec key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
