package io.olmstead.controlplane.registry;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A metric label whose values come from users (registry hosts, catalog names), held to a fixed
 * number of distinct values: the first {@code cap} values seen keep their own series, every later
 * one shares {@value #OTHER}. A scrape never grows with what users type.
 */
final class BoundedLabel {
  static final String OTHER = "other";

  private final int cap;
  private final Set<String> kept = ConcurrentHashMap.newKeySet();

  BoundedLabel(int cap) {
    this.cap = cap;
  }

  /** {@code value} while it is one of the first {@code cap} seen, else {@value #OTHER}. */
  String of(String value) {
    if (kept.contains(value)) {
      return value;
    }
    synchronized (this) {
      if (kept.size() < cap) {
        kept.add(value);
        return value;
      }
    }
    return OTHER;
  }
}
