package io.olmstead.agent.k8s;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels that mark an object as managed by Olmstead and say which subscription and bundle own
 * it. Removal and cleanup select by them, so every applied object carries all four.
 */
public final class ManagedLabels {
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String MANAGED_BY_VALUE = "olmstead";
  public static final String SUBSCRIPTION = "olmstead.io/subscription";
  public static final String BUNDLE = "olmstead.io/bundle";

  /**
   * The operator namespace, so an event on a cluster-scoped object finds the namespace to
   * reconcile.
   */
  public static final String NAMESPACE = "olmstead.io/namespace";

  /** Set on OperatorConditions of subscriptions the agent created to satisfy a dependency. */
  public static final String DEPENDENCY_OF = "olmstead.io/dependency-of";

  /** Annotation on a bundle's OperatorCondition: the agent's install phase for that bundle. */
  public static final String PHASE_ANNOTATION = "olmstead.io/phase";

  /**
   * Annotation with the unshortened subscription name (label values are limited to 63 characters).
   */
  public static final String SUBSCRIPTION_ANNOTATION = "olmstead.io/subscription-name";

  private ManagedLabels() {}

  /**
   * The labels for an object of {@code bundle} installed for {@code subscription} in {@code
   * namespace}.
   */
  public static Map<String, String> of(String subscription, String bundle, String namespace) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(MANAGED_BY, MANAGED_BY_VALUE);
    labels.put(SUBSCRIPTION, value(subscription));
    labels.put(BUNDLE, value(bundle));
    labels.put(NAMESPACE, value(namespace));
    return labels;
  }

  /** The selector for everything of one subscription. */
  public static Map<String, String> selector(String subscription, String namespace) {
    return Map.of(
        MANAGED_BY,
        MANAGED_BY_VALUE,
        SUBSCRIPTION,
        value(subscription),
        NAMESPACE,
        value(namespace));
  }

  /**
   * A valid label value for any text: kept when it fits (63 chars of [A-Za-z0-9._-], alphanumeric
   * ends), else a readable prefix plus a hash so distinct inputs stay distinct.
   */
  public static String value(String text) {
    if (text == null || text.isEmpty()) {
      return "";
    }
    if (text.length() <= 63 && text.matches("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?")) {
      return text;
    }
    String cleaned = text.replaceAll("[^-A-Za-z0-9_.]", "-");
    String prefix =
        cleaned
            .substring(0, Math.min(cleaned.length(), 50))
            .replaceAll("^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "");
    return (prefix.isEmpty() ? "x" : prefix) + "-" + hash(text);
  }

  private static String hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
