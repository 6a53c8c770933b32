package io.olmstead.controlplane.agentgateway;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;

/** A least-recently-used map bounded by the total size of its values; not thread-safe. */
final class SizedLru<V> {
  private final long maxBytes;
  private final ToLongFunction<V> sizeOf;
  private final LinkedHashMap<String, V> entries = new LinkedHashMap<>(16, 0.75f, true);
  private volatile long bytes;

  SizedLru(long maxBytes, ToLongFunction<V> sizeOf) {
    this.maxBytes = maxBytes;
    this.sizeOf = sizeOf;
  }

  Optional<V> get(String key) {
    return Optional.ofNullable(entries.get(key));
  }

  /** Keeps the value, evicting the least recently used ones to fit; a value larger than the bound is not kept. */
  void put(String key, V value) {
    long size = sizeOf.applyAsLong(value);
    if (size > maxBytes) {
      return;
    }
    V old = entries.put(key, value);
    long total = bytes + size - (old == null ? 0 : sizeOf.applyAsLong(old));
    Iterator<Map.Entry<String, V>> eldest = entries.entrySet().iterator();
    while (total > maxBytes && eldest.hasNext()) {
      Map.Entry<String, V> entry = eldest.next();
      if (!entry.getKey().equals(key)) {
        total -= sizeOf.applyAsLong(entry.getValue());
        eldest.remove();
      }
    }
    bytes = total;
  }

  long bytes() {
    return bytes;
  }

  long maxBytes() {
    return maxBytes;
  }

  int size() {
    return entries.size();
  }
}
