package io.olmstead.agent.reconcile;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Rate limit for drift restores, per object: the first restore goes at once, each further one waits
 * twice as long as the last (1 s doubling to 5 min), and an object left alone for 10 minutes starts
 * again at once. Without it, an object that someone else keeps changing (another controller, a
 * second owner) is rewritten as fast as events arrive. Bounded: beyond {@code maxEntries} objects
 * the least recently restored is forgotten.
 */
final class RestoreBackoff {
  static final Duration FIRST = Duration.ofSeconds(1);
  static final Duration MAX = Duration.ofMinutes(5);
  static final Duration QUIET = MAX.multipliedBy(2);
  static final int MAX_ENTRIES = 4096;

  private record Entry(long delayMillis, long nextAllowedMillis, long lastMillis) {}

  private final LongSupplier clockMillis;
  private final int maxEntries;
  private final Map<String, Entry> entries;

  RestoreBackoff() {
    this(System::currentTimeMillis, MAX_ENTRIES);
  }

  RestoreBackoff(LongSupplier clockMillis, int maxEntries) {
    this.clockMillis = clockMillis;
    this.maxEntries = maxEntries;
    this.entries =
        new LinkedHashMap<>(64, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > RestoreBackoff.this.maxEntries;
          }
        };
  }

  /**
   * True when {@code object} may be restored now (and counts this restore); false while it backs
   * off.
   */
  synchronized boolean permit(String object) {
    long now = clockMillis.getAsLong();
    Entry e = entries.get(object);
    if (e != null && now < e.nextAllowedMillis()) {
      return false;
    }
    long delay =
        e == null || now - e.lastMillis() > QUIET.toMillis()
            ? FIRST.toMillis()
            : Math.min(MAX.toMillis(), e.delayMillis() * 2);
    entries.put(object, new Entry(delay, now + delay, now));
    return true;
  }

  synchronized int size() {
    return entries.size();
  }
}
