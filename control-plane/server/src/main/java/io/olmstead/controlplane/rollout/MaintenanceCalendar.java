package io.olmstead.controlplane.rollout;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The fleet's calendar as pure functions: a cluster may change while it is inside one of the
 * windows whose selector matches its labels and outside every freeze that matches them. A cluster
 * that no window selects is limited by freezes only.
 *
 * <p>Window starts are wall-clock times of the window's zone. A start that falls in a
 * spring-forward gap moves later by the length of the gap (02:30 becomes 03:30 in Europe/Berlin); a
 * start in the repeated hour of a fall-back opens once, at its first occurrence. A window then
 * stays open for its duration in real time, whatever the clock shows.
 */
public final class MaintenanceCalendar {

  /**
   * Longer than any daylight-saving shift, so searching this far around a wall time finds every
   * start.
   */
  private static final Duration SLACK = Duration.ofHours(3);

  /**
   * Bounds the work of one question, whatever the cron (every minute) or the freezes (thousands,
   * chained).
   */
  private static final int MAX_STEPS = 2_000;

  /** How far ahead {@link #nextOpening} looks. */
  public static final Duration HORIZON = Duration.ofDays(400);

  private final List<MaintenanceWindow> windows;
  private final List<Freeze> freezes;

  public MaintenanceCalendar(List<MaintenanceWindow> windows, List<Freeze> freezes) {
    this.windows = List.copyOf(windows);
    this.freezes = List.copyOf(freezes);
  }

  /** Whether a cluster with these labels may change at {@code t}. */
  public boolean isOpen(Map<String, String> labels, Instant t) {
    List<MaintenanceWindow> own = windowsOf(labels);
    return freezes.stream().noneMatch(f -> f.selector().matches(labels) && f.covers(t))
        && inWindow(own, t);
  }

  /**
   * The first instant at or after {@code t} when the cluster may change; empty if none within
   * {@link #HORIZON}.
   */
  public Optional<Instant> nextOpening(Map<String, String> labels, Instant t) {
    List<MaintenanceWindow> own = windowsOf(labels);
    List<Freeze> frozenBy = freezes.stream().filter(f -> f.selector().matches(labels)).toList();
    Instant limit = t.plus(HORIZON);
    Instant u = t;
    for (int step = 0; step < MAX_STEPS && !u.isAfter(limit); step++) {
      Instant at = u;
      Optional<Instant> thaw =
          frozenBy.stream()
              .filter(f -> f.covers(at))
              .map(Freeze::end)
              .max(Comparator.naturalOrder());
      if (thaw.isPresent()) {
        u = thaw.get();
      } else if (inWindow(own, u)) {
        return Optional.of(u);
      } else {
        Optional<Instant> next =
            own.stream()
                .map(w -> nextStartAfter(w, at))
                .filter(Objects::nonNull)
                .min(Comparator.naturalOrder());
        if (next.isEmpty()) {
          return Optional.empty();
        }
        u = next.get();
      }
    }
    return Optional.empty();
  }

  /**
   * Only the windows and freezes that select a cluster with these labels (clusters alike share one
   * answer).
   */
  public MaintenanceCalendar restrictTo(Map<String, String> labels) {
    return new MaintenanceCalendar(
        windowsOf(labels), freezes.stream().filter(f -> f.selector().matches(labels)).toList());
  }

  List<MaintenanceWindow> windows() {
    return windows;
  }

  List<Freeze> freezes() {
    return freezes;
  }

  /** Whether this calendar has neither windows nor freezes (everything may change at any time). */
  public boolean isEmpty() {
    return windows.isEmpty() && freezes.isEmpty();
  }

  /**
   * For a cluster that may change at {@code t}: the first instant after it when it may not (its
   * windows, chained when they overlap, close, or a freeze starts); empty when that is not within
   * {@link #HORIZON}.
   */
  public Optional<Instant> nextClosing(Map<String, String> labels, Instant t) {
    return nextClosing(labels, t, t.plus(HORIZON));
  }

  /**
   * {@link #nextClosing(Map, Instant)} for a caller that needs the answer only up to {@code until}
   * (the soak clock measures up to now): the chain of windows is followed until it reaches {@code
   * until}, and the answer is then the chain's end so far, at or after it. Windows back to back (a
   * 5-minute window every 5 minutes is always open) would otherwise be chained step by step up to
   * the horizon: seconds of work for an instant nobody uses.
   */
  public Optional<Instant> nextClosing(Map<String, String> labels, Instant t, Instant until) {
    List<MaintenanceWindow> own = windowsOf(labels);
    Instant limit = t.plus(HORIZON);
    Instant stop = until.isBefore(limit) ? until : limit;
    Instant end = limit;
    if (!own.isEmpty()) {
      end = t;
      for (int step = 0; step < MAX_STEPS && end.isBefore(stop); step++) {
        Instant at = end;
        Optional<Instant> later =
            own.stream()
                .map(
                    w -> {
                      Instant start = latestStartAtOrBefore(w, at);
                      return start == null ? null : start.plus(w.duration());
                    })
                .filter(e -> e != null && e.isAfter(at))
                .max(Comparator.naturalOrder());
        if (later.isEmpty()) {
          break;
        }
        end = later.get();
      }
    }
    Instant close = end;
    Optional<Instant> frozen =
        freezes.stream()
            .filter(
                f ->
                    f.selector().matches(labels)
                        && f.start().isAfter(t)
                        && f.start().isBefore(close))
            .map(Freeze::start)
            .min(Comparator.naturalOrder());
    Instant result = frozen.orElse(close);
    return result.isBefore(limit) ? Optional.of(result) : Optional.empty();
  }

  private List<MaintenanceWindow> windowsOf(Map<String, String> labels) {
    return windows.stream().filter(w -> w.selector().matches(labels)).toList();
  }

  private static boolean inWindow(List<MaintenanceWindow> own, Instant t) {
    return own.isEmpty()
        || own.stream()
            .anyMatch(
                w -> {
                  Instant start = latestStartAtOrBefore(w, t);
                  return start != null && t.isBefore(start.plus(w.duration()));
                });
  }

  /**
   * The last start not after {@code t}, searching back from a little past t's wall time (offsets
   * may reorder).
   */
  static Instant latestStartAtOrBefore(MaintenanceWindow w, Instant t) {
    LocalDateTime wall = t.atZone(w.zone()).toLocalDateTime();
    LocalDateTime oldestUseful = wall.minus(w.duration()).minus(SLACK);
    ZonedDateTime cursor = wall.plus(SLACK).atZone(ZoneOffset.UTC);
    Instant best = null;
    for (int step = 0; step < MAX_STEPS; step++) {
      Optional<ZonedDateTime> previous = w.starts().lastExecution(cursor);
      if (previous.isEmpty() || previous.get().toLocalDateTime().isBefore(oldestUseful)) {
        break;
      }
      cursor = previous.get();
      Instant start = instant(cursor.toLocalDateTime(), w.zone());
      if (!start.isAfter(t) && (best == null || start.isAfter(best))) {
        best = start;
      }
      if (best != null && cursor.toLocalDateTime().isBefore(wall.minus(SLACK))) {
        break;
      }
    }
    return best;
  }

  /** The first start strictly after {@code t}, or null when the cron never fires again. */
  static Instant nextStartAfter(MaintenanceWindow w, Instant t) {
    LocalDateTime wall = t.atZone(w.zone()).toLocalDateTime();
    ZonedDateTime cursor = wall.minus(SLACK).atZone(ZoneOffset.UTC);
    Instant best = null;
    for (int step = 0; step < MAX_STEPS; step++) {
      Optional<ZonedDateTime> next = w.starts().nextExecution(cursor);
      if (next.isEmpty()) {
        break;
      }
      cursor = next.get();
      Instant start = instant(cursor.toLocalDateTime(), w.zone());
      if (start.isAfter(t) && (best == null || start.isBefore(best))) {
        best = start;
      }
      if (best != null && cursor.toLocalDateTime().isAfter(wall.plus(SLACK))) {
        break;
      }
    }
    return best;
  }

  /**
   * java.time's rule: a gap moves the time later by the gap's length, an overlap takes the earlier
   * offset.
   */
  private static Instant instant(LocalDateTime wall, ZoneId zone) {
    return ZonedDateTime.ofLocal(wall, zone, null).toInstant();
  }
}
