package io.olmstead.controlplane.signals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Semver-ish comparison of channel names: {@code stable-v2.1} is newer than {@code stable-v2.0}
 * (same text around the dotted number, a higher number); {@code fast-v2.1} and {@code stable} are
 * not comparable with it.
 */
public final class ChannelNames {
  // the last dotted number of the name, with the text before and after it
  private static final Pattern VERSIONED =
      Pattern.compile("^(.*?)(\\d{1,9}(?:\\.\\d{1,9})*)([^0-9]*)$");

  private ChannelNames() {}

  /** The newest channel among {@code channels} that is newer than {@code current}, if any. */
  public static Optional<String> newest(String current, Collection<String> channels) {
    Optional<Parsed> base = parse(current);
    if (base.isEmpty()) {
      return Optional.empty();
    }
    Parsed best = base.get();
    for (String name : channels) {
      Optional<Parsed> other = parse(name);
      if (other.isPresent()
          && other.get().sameFamily(base.get())
          && compare(other.get(), best) > 0) {
        best = other.get();
      }
    }
    return best == base.get() ? Optional.empty() : Optional.of(best.name());
  }

  private record Parsed(String name, String prefix, List<Long> numbers, String suffix) {
    boolean sameFamily(Parsed other) {
      return prefix.equals(other.prefix) && suffix.equals(other.suffix);
    }
  }

  private static Optional<Parsed> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    Matcher m = VERSIONED.matcher(name);
    if (!m.matches()) {
      return Optional.empty();
    }
    List<Long> numbers = new ArrayList<>();
    for (String part : m.group(2).split("\\.")) {
      numbers.add(Long.parseLong(part));
    }
    return Optional.of(new Parsed(name, m.group(1), numbers, m.group(3)));
  }

  // missing parts count as 0 (v2 = v2.0); equal numbers: not newer
  private static int compare(Parsed a, Parsed b) {
    for (int i = 0; i < Math.max(a.numbers().size(), b.numbers().size()); i++) {
      long x = i < a.numbers().size() ? a.numbers().get(i) : 0;
      long y = i < b.numbers().size() ? b.numbers().get(i) : 0;
      if (x != y) {
        return Long.compare(x, y);
      }
    }
    return 0;
  }
}
