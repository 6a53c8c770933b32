package io.olmstead.controlplane.rollout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The fleet calendar as one rollout step asks it, at one instant (pure): may this cluster change
 * now, when may it next, and how much of a past interval it could change in (the time its soak and
 * progress-deadline clocks ran). Clusters selected by the same windows and freezes share one
 * schedule, computed once per step, so a step over thousands of clusters in a few dozen time zones
 * costs a few dozen calendar questions.
 */
public final class CalendarGate {
  private static final Schedule OPEN =
      new Schedule(new MaintenanceCalendar(List.of(), List.of()), Map.of(), null);

  private final Map<String, Schedule> byCluster;
  private final Instant now;

  private CalendarGate(Map<String, Schedule> byCluster, Instant now) {
    this.byCluster = byCluster;
    this.now = now;
  }

  /**
   * Every cluster may change at any time: a rollout that ignores the calendar, or a fleet without
   * one.
   */
  public static CalendarGate alwaysOpen(Instant now) {
    return new CalendarGate(Map.of(), now);
  }

  /**
   * The gate for clusters with these labels at {@code now}; clusters not in {@code labels} are
   * never limited.
   */
  public static CalendarGate of(
      MaintenanceCalendar calendar, Map<String, Map<String, String>> labels, Instant now) {
    if (calendar.isEmpty()) {
      return alwaysOpen(now);
    }
    // a cluster's schedule is named by which windows and freezes select it: cheap to compute, cheap
    // to hash
    List<MaintenanceWindow> windows = calendar.windows();
    List<Freeze> freezes = calendar.freezes();
    Map<BitSet, Schedule> shared = new HashMap<>();
    Map<String, Schedule> byCluster = new HashMap<>(labels.size() * 2);
    labels.forEach(
        (cluster, l) -> {
          BitSet key = new BitSet(windows.size() + freezes.size());
          for (int i = 0; i < windows.size(); i++) {
            if (windows.get(i).selector().matches(l)) {
              key.set(i);
            }
          }
          for (int i = 0; i < freezes.size(); i++) {
            if (freezes.get(i).selector().matches(l)) {
              key.set(windows.size() + i);
            }
          }
          byCluster.put(
              cluster,
              key.isEmpty()
                  ? OPEN
                  : shared.computeIfAbsent(key, k -> new Schedule(calendar.restrictTo(l), l, now)));
        });
    return new CalendarGate(byCluster, now);
  }

  private Schedule schedule(String cluster) {
    return byCluster.getOrDefault(cluster, OPEN);
  }

  /** Whether the cluster may change now. */
  public boolean open(String cluster) {
    return schedule(cluster).openNow();
  }

  /**
   * Whether a freeze that selects the cluster covers now (it is closed by a freeze, not only by its
   * windows).
   */
  public boolean frozen(String cluster) {
    return schedule(cluster).calendar.freezes().stream().anyMatch(f -> f.covers(now));
  }

  /**
   * When the first of {@code clusters} may change, at or after now; empty if none can within the
   * horizon.
   */
  public Optional<Instant> nextOpening(Collection<String> clusters) {
    List<Schedule> schedules = distinct(clusters);
    if (schedules.contains(OPEN)) {
      return Optional.of(now);
    }
    return schedules.stream()
        .map(Schedule::nextOpening)
        .flatMap(Optional::stream)
        .min(Comparator.naturalOrder());
  }

  /**
   * How long, of {@code [from, now)}, the cluster could change: its deadline clock, stopped outside
   * its windows.
   */
  public Duration openTime(String cluster, Instant from) {
    return openTimeOfAny(List.of(cluster), from);
  }

  /**
   * How long, of {@code [from, now)}, at least one of the clusters could change: the wave's soak
   * clock.
   */
  public Duration openTimeOfAny(Collection<String> clusters, Instant from) {
    if (from == null || !from.isBefore(now)) {
      return Duration.ZERO;
    }
    List<Schedule> schedules = distinct(clusters);
    if (schedules.isEmpty() || schedules.contains(OPEN)) {
      return Duration.between(from, now);
    }
    if (schedules.size()
        == 1) { // clusters approved together share the answer: a progressing wave asks it once
      return schedules.get(0).openSince.computeIfAbsent(from, f -> measure(schedules, f));
    }
    return measure(schedules, from);
  }

  private Duration measure(List<Schedule> schedules, Instant from) {
    Duration total = Duration.ZERO;
    Instant u = from;
    for (int step = 0; step < 10_000 && u.isBefore(now); step++) {
      Instant at = u;
      List<Schedule> open = schedules.stream().filter(s -> s.openAt(at)).toList();
      if (!open.isEmpty()) {
        // the union stays open at least until the last of the open ones closes
        Instant end =
            open.stream().map(s -> s.closingAfter(at)).max(Comparator.naturalOrder()).orElse(now);
        end = end.isAfter(now) ? now : end;
        total = total.plus(Duration.between(u, end));
        u = end;
      } else {
        u =
            schedules.stream()
                .map(s -> s.nextOpeningAfter(at))
                .flatMap(Optional::stream)
                .min(Comparator.naturalOrder())
                .orElse(now);
      }
    }
    return total;
  }

  private List<Schedule> distinct(Collection<String> clusters) {
    Set<Schedule> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Schedule> out = new ArrayList<>();
    for (String c : clusters) {
      Schedule s = schedule(c);
      if (seen.add(s)) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * One set of windows and freezes (asked with the labels of a cluster it selects), its answers at
   * now remembered.
   */
  private static final class Schedule {
    private final MaintenanceCalendar calendar;
    private final Map<String, String> labels;
    private final Instant now;
    private Boolean openNow;
    private Optional<Instant> nextOpening;
    private final Map<Instant, Duration> openSince = new HashMap<>();

    Schedule(MaintenanceCalendar calendar, Map<String, String> labels, Instant now) {
      this.calendar = calendar;
      this.labels = labels;
      this.now = now;
    }

    boolean openNow() {
      if (openNow == null) {
        openNow = calendar.isOpen(labels, now);
      }
      return openNow;
    }

    boolean openAt(Instant t) {
      return t.equals(now) ? openNow() : calendar.isOpen(labels, t);
    }

    Optional<Instant> nextOpening() {
      if (nextOpening == null) {
        nextOpening = calendar.nextOpening(labels, now);
      }
      return nextOpening;
    }

    Optional<Instant> nextOpeningAfter(Instant t) {
      return calendar.nextOpening(labels, t);
    }

    Instant closingAfter(Instant t) {
      // only needed up to now: the soak clock and the deadlines measure [from, now)
      return calendar.nextClosing(labels, t, now).orElse(t.plus(MaintenanceCalendar.HORIZON));
    }
  }
}
