package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.Wave;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A wave and the fleet calendar (pure, part of the rollout step): a wave none of whose clusters may
 * change now waits in {@code WaitingForWindow}, its soak clock stopped, unless it has nothing left
 * to do; when a window opens it goes on from where it stood ({@code Open}, or {@code Soaking} when
 * its clusters settled meanwhile).
 */
final class WaveWindows {
  private WaveWindows() {}

  /**
   * Whether the wave must wait now: none of its clusters may change and it cannot complete as it
   * stands.
   */
  static boolean waits(
      Wave w,
      List<String> clusters,
      boolean settled,
      CalendarGate gate,
      Instant now,
      int soakSeconds) {
    if (clusters.stream().anyMatch(gate::open)) {
      return false;
    }
    Instant soakingSince = w.soakingSince() != null ? w.soakingSince() : settled ? now : null;
    boolean soaked =
        soakingSince != null
            && gate.openTimeOfAny(clusters, soakingSince).compareTo(Duration.ofSeconds(soakSeconds))
                >= 0;
    return !soaked;
  }

  /**
   * The wave waiting for a window; a transition names when the first of its clusters may change.
   */
  static Wave waiting(
      Wave w,
      boolean settled,
      Instant now,
      List<String> clusters,
      CalendarGate gate,
      List<Transition> t) {
    Instant soakingSince = w.soakingSince() == null && settled ? now : w.soakingSince();
    if (w.state() != WaveState.WaitingForWindow) {
      String next =
          gate.nextOpening(clusters)
              .map(at -> "until " + at)
              .orElse("no window opens within " + MaintenanceCalendar.HORIZON.toDays() + " days");
      t.add(new Transition("WaveWaitingForWindow", w.name(), null, next));
    }
    return w.with(WaveState.WaitingForWindow, w.openedAt(), soakingSince, null);
  }

  /**
   * A pending or waiting wave that need not wait (one of its clusters may change, or it has
   * soaked): it opens, or goes on as it stood before it waited.
   */
  static Wave reopen(Wave w, Instant now, List<Transition> t) {
    if (w.openedAt() == null) {
      t.add(new Transition("WaveOpened", w.name(), null, null));
      return w.with(WaveState.Open, now, null, null);
    }
    if (w.state() == WaveState.Pending) {
      return w;
    }
    t.add(
        new Transition(
            "WaveResumed", w.name(), null, "a window opened or nothing is left to wait for"));
    return w.with(
        w.soakingSince() != null ? WaveState.Soaking : WaveState.Open,
        w.openedAt(),
        w.soakingSince(),
        null);
  }
}
