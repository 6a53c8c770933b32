package io.olmstead.controlplane.catalog;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Content addresses of catalog revisions: {@code sha256:<hex>} of the bytes exactly as uploaded.
 */
public final class CatalogDigest {
  private CatalogDigest() {}

  public static String of(byte[] content) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
