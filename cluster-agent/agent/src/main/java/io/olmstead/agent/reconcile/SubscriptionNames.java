package io.olmstead.agent.reconcile;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Names of subscriptions the agent makes up itself (dependencies the resolver added). The control
 * plane accepts only DNS-1123 labels as reported subscription names, while channels such as {@code
 * 3.x} or {@code Stable} are not.
 */
final class SubscriptionNames {
  static final int MAX_LENGTH = 63;
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final int HASH_HEX = 10;

  private SubscriptionNames() {}

  /**
   * The implied subscription for a dependency: {@code package-channel-catalog}, made a DNS-1123
   * label.
   */
  static String implied(String packageName, String channel, String catalog) {
    return dnsLabel(packageName + "-" + channel + "-" + catalog);
  }

  /**
   * {@code text} itself when it is a DNS-1123 label, else a readable lowercase prefix plus a hash
   * of the whole text, so that {@code 3.x} and {@code 3-x}, or two long names sharing a prefix,
   * stay distinct.
   */
  static String dnsLabel(String text) {
    String raw = text == null ? "" : text;
    if (isDnsLabel(raw)) {
      return raw;
    }
    String cleaned = raw.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    int room = MAX_LENGTH - HASH_HEX - 1;
    String prefix =
        cleaned.substring(0, Math.min(cleaned.length(), room)).replaceAll("^-+|-+$", "");
    String hash = hash(raw);
    return prefix.isEmpty() ? hash : prefix + "-" + hash;
  }

  static boolean isDnsLabel(String text) {
    return text != null && text.length() <= MAX_LENGTH && DNS_LABEL.matcher(text).matches();
  }

  private static String hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, HASH_HEX);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
