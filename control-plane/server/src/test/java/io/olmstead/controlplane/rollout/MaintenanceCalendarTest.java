package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MaintenanceCalendarTest {

  private static final Map<String, String> EU = Map.of("region", "eu");
  private static final Map<String, String> US = Map.of("region", "us");

  private static MaintenanceWindow window(String cron, int minutes, String zone) {
    return MaintenanceWindow.of("w", "", cron, minutes, zone);
  }

  private static Freeze freeze(String start, String end, String selector) {
    return Freeze.of("f", Instant.parse(start), Instant.parse(end), selector);
  }

  private static MaintenanceCalendar calendar(MaintenanceWindow... windows) {
    return new MaintenanceCalendar(List.of(windows), List.of());
  }

  static Stream<Arguments> openings() {
    MaintenanceWindow nightBerlin = window("0 22 * * *", 240, "Europe/Berlin");
    MaintenanceWindow halfPastTwoBerlin = window("30 2 * * *", 60, "Europe/Berlin");
    MaintenanceWindow oneBerlin = window("0 1 * * *", 180, "Europe/Berlin");
    MaintenanceWindow midnightBerlin = window("0 0 * * *", 240, "Europe/Berlin");
    MaintenanceWindow twoNewYork = window("0 2 * * *", 60, "America/New_York");
    MaintenanceWindow halfPastOneNewYork = window("30 1 * * *", 30, "America/New_York");
    MaintenanceCalendar overlapping =
        calendar(window("0 1 * * *", 120, "UTC"), window("0 2 * * *", 120, "UTC"));
    MaintenanceCalendar sundayNight = calendar(window("0 23 * * 0", 120, "UTC"));
    return Stream.of(
        // a window crossing midnight: 22:00-02:00 Berlin (CET = UTC+1), the end excluded
        Arguments.of(
            "before a window crossing midnight",
            calendar(nightBerlin),
            "2026-01-15T20:59:00Z",
            false),
        Arguments.of(
            "late in a window crossing midnight",
            calendar(nightBerlin),
            "2026-01-15T22:30:00Z",
            true),
        Arguments.of("after midnight in it", calendar(nightBerlin), "2026-01-16T00:59:00Z", true),
        Arguments.of("at its end", calendar(nightBerlin), "2026-01-16T01:00:00Z", false),
        // Berlin springs forward on 2026-03-29 at 02:00 CET: 02:30 does not exist and moves to
        // 03:30 CEST = 01:30Z
        Arguments.of(
            "spring forward: before the moved start",
            calendar(halfPastTwoBerlin),
            "2026-03-29T01:29:00Z",
            false),
        Arguments.of(
            "spring forward: at the moved start",
            calendar(halfPastTwoBerlin),
            "2026-03-29T01:30:00Z",
            true),
        Arguments.of(
            "spring forward: an hour of real time",
            calendar(halfPastTwoBerlin),
            "2026-03-29T02:30:00Z",
            false),
        Arguments.of(
            "spring forward: duration is real time",
            calendar(oneBerlin),
            "2026-03-29T02:59:00Z",
            true),
        Arguments.of(
            "spring forward: ends after 180 real minutes",
            calendar(oneBerlin),
            "2026-03-29T03:00:00Z",
            false),
        // Berlin falls back on 2026-10-25 at 03:00 CEST: 02:30 happens twice, the window opens at
        // the first (00:30Z)
        Arguments.of(
            "fall back: first 02:30", calendar(halfPastTwoBerlin), "2026-10-25T00:30:00Z", true),
        Arguments.of(
            "fall back: 02:00 CET still inside",
            calendar(halfPastTwoBerlin),
            "2026-10-25T01:00:00Z",
            true),
        Arguments.of(
            "fall back: second 02:30 does not reopen",
            calendar(halfPastTwoBerlin),
            "2026-10-25T01:30:00Z",
            false),
        Arguments.of(
            "fall back: 240 real minutes from 00:00 CEST",
            calendar(midnightBerlin),
            "2026-10-25T01:59:00Z",
            true),
        Arguments.of(
            "fall back: closed at 03:00 CET",
            calendar(midnightBerlin),
            "2026-10-25T02:00:00Z",
            false),
        // New York springs forward on 2026-03-08 at 02:00 EST: 02:00 becomes 03:00 EDT = 07:00Z
        Arguments.of(
            "NY spring forward: before", calendar(twoNewYork), "2026-03-08T06:59:00Z", false),
        Arguments.of(
            "NY spring forward: at 03:00 EDT", calendar(twoNewYork), "2026-03-08T07:00:00Z", true),
        Arguments.of("NY spring forward: end", calendar(twoNewYork), "2026-03-08T08:00:00Z", false),
        Arguments.of(
            "NY the day after: 02:00 EDT", calendar(twoNewYork), "2026-03-09T06:00:00Z", true),
        // New York falls back on 2026-11-01 at 02:00 EDT: 01:30 happens twice, EDT first (05:30Z)
        Arguments.of(
            "NY fall back: first 01:30",
            calendar(halfPastOneNewYork),
            "2026-11-01T05:45:00Z",
            true),
        Arguments.of(
            "NY fall back: second 01:30 is closed",
            calendar(halfPastOneNewYork),
            "2026-11-01T06:30:00Z",
            false),
        Arguments.of("overlapping windows: first", overlapping, "2026-06-10T01:30:00Z", true),
        Arguments.of(
            "overlapping windows: only the second", overlapping, "2026-06-10T03:30:00Z", true),
        Arguments.of("overlapping windows: after both", overlapping, "2026-06-10T04:00:00Z", false),
        Arguments.of("weekly window into Monday", sundayNight, "2026-06-15T00:30:00Z", true),
        Arguments.of(
            "weekly window: not on Monday night", sundayNight, "2026-06-15T23:30:00Z", false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("openings")
  void opensOnlyInsideAWindow(String name, MaintenanceCalendar calendar, String at, boolean open) {
    assertThat(calendar.isOpen(EU, Instant.parse(at))).isEqualTo(open);
  }

  static Stream<Arguments> freezes() {
    MaintenanceWindow dawn = window("0 0 * * *", 360, "UTC");
    List<Freeze> fleet = List.of(freeze("2026-06-10T02:00:00Z", "2026-06-10T03:00:00Z", ""));
    List<Freeze> euOnly =
        List.of(freeze("2026-06-10T02:00:00Z", "2026-06-10T03:00:00Z", "region=eu"));
    return Stream.of(
            Arguments.of(
                "before a freeze inside the window", fleet, EU, "2026-06-10T01:59:00Z", true),
            Arguments.of("at the freeze's start", fleet, EU, "2026-06-10T02:00:00Z", false),
            Arguments.of("late in the freeze", fleet, EU, "2026-06-10T02:59:00Z", false),
            Arguments.of(
                "at the freeze's end the window is open again",
                fleet,
                EU,
                "2026-06-10T03:00:00Z",
                true),
            Arguments.of("a freeze for eu holds eu", euOnly, EU, "2026-06-10T02:30:00Z", false),
            Arguments.of("a freeze for eu leaves us", euOnly, US, "2026-06-10T02:30:00Z", true))
        .map(
            a ->
                Arguments.of(
                    a.get()[0],
                    new MaintenanceCalendar(List.of(dawn), (List<Freeze>) a.get()[1]),
                    a.get()[2],
                    a.get()[3],
                    a.get()[4]));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("freezes")
  void holdsClustersInsideAFreeze(
      String name,
      MaintenanceCalendar calendar,
      Map<String, String> labels,
      String at,
      boolean open) {
    assertThat(calendar.isOpen(labels, Instant.parse(at))).isEqualTo(open);
  }

  @Test
  void aClusterNoWindowSelectsIsLimitedByFreezesOnly() {
    MaintenanceCalendar calendar =
        new MaintenanceCalendar(
            List.of(MaintenanceWindow.of("eu-nights", "region=eu", "0 1 * * *", 60, "UTC")),
            List.of(freeze("2026-06-10T12:00:00Z", "2026-06-10T13:00:00Z", "")));
    assertThat(calendar.isOpen(US, Instant.parse("2026-06-10T11:00:00Z"))).isTrue();
    assertThat(calendar.isOpen(US, Instant.parse("2026-06-10T12:30:00Z"))).isFalse();
    assertThat(calendar.isOpen(EU, Instant.parse("2026-06-10T11:00:00Z"))).isFalse();
  }

  static Stream<Arguments> nextOpenings() {
    MaintenanceWindow dawn = window("0 0 * * *", 360, "UTC");
    return Stream.of(
        Arguments.of(
            "inside a window: now",
            List.of(dawn),
            List.of(),
            "2026-06-10T01:00:00Z",
            "2026-06-10T01:00:00Z"),
        Arguments.of(
            "the next start",
            List.of(dawn),
            List.of(),
            "2026-06-10T07:00:00Z",
            "2026-06-11T00:00:00Z"),
        Arguments.of(
            "Berlin spring forward: the moved start",
            List.of(window("30 2 * * *", 60, "Europe/Berlin")),
            List.of(),
            "2026-03-28T23:00:00Z",
            "2026-03-29T01:30:00Z"),
        Arguments.of(
            "New York fall back: not the repeated hour",
            List.of(window("30 1 * * *", 30, "America/New_York")),
            List.of(),
            "2026-11-01T06:00:00Z",
            "2026-11-02T06:30:00Z"),
        Arguments.of(
            "a freeze ending inside the window",
            List.of(dawn),
            List.of(freeze("2026-06-09T23:00:00Z", "2026-06-10T02:00:00Z", "")),
            "2026-06-09T22:00:00Z",
            "2026-06-10T02:00:00Z"),
        Arguments.of(
            "a freeze over the whole window",
            List.of(dawn),
            List.of(freeze("2026-06-09T23:00:00Z", "2026-06-10T07:00:00Z", "")),
            "2026-06-09T22:00:00Z",
            "2026-06-11T00:00:00Z"),
        Arguments.of(
            "overlapping freezes",
            List.of(dawn),
            List.of(
                freeze("2026-06-10T00:00:00Z", "2026-06-10T02:00:00Z", ""),
                freeze("2026-06-10T01:00:00Z", "2026-06-10T03:00:00Z", "")),
            "2026-06-10T00:30:00Z",
            "2026-06-10T03:00:00Z"),
        Arguments.of(
            "no window for the cluster: after the freeze",
            List.of(),
            List.of(freeze("2026-06-10T00:00:00Z", "2026-06-10T02:00:00Z", "")),
            "2026-06-10T00:30:00Z",
            "2026-06-10T02:00:00Z"),
        Arguments.of(
            "frozen beyond the horizon: never",
            List.of(dawn),
            List.of(freeze("2026-06-10T00:00:00Z", "2028-01-01T00:00:00Z", "")),
            "2026-06-10T00:30:00Z",
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nextOpenings")
  void findsTheNextOpening(
      String name,
      List<MaintenanceWindow> windows,
      List<Freeze> freezes,
      String from,
      String expected) {
    Optional<Instant> next =
        new MaintenanceCalendar(windows, freezes).nextOpening(EU, Instant.parse(from));
    assertThat(next).isEqualTo(Optional.ofNullable(expected).map(Instant::parse));
  }

  @Test
  void aWindowOnTheTwentyNinthOfFebruaryIsAValidWindow() {
    assertThat(window("0 2 29 2 *", 60, "UTC")).isNotNull();
  }

  static Stream<Arguments> badWindows() {
    return Stream.of(
        Arguments.of("61 * * * *", 60, "UTC", "cron"),
        Arguments.of("* * * *", 60, "UTC", "cron"),
        Arguments.of("0 * * * * *", 60, "UTC", "cron"),
        Arguments.of("", 60, "UTC", "cron"),
        Arguments.of(null, 60, "UTC", "cron"),
        Arguments.of("0 2 * * mon-xyz", 60, "UTC", "cron"),
        Arguments.of("0 22 30 2 *", 60, "UTC", "cron"),
        Arguments.of("0 0 31 4 *", 60, "UTC", "cron"),
        Arguments.of("0 2 * * *", 60, "Mars/Olympus_Mons", "timeZone"),
        Arguments.of("0 2 * * *", 60, "+02:00", "timeZone"),
        Arguments.of("0 2 * * *", 60, null, "timeZone"),
        Arguments.of("0 2 * * *", 0, "UTC", "durationMinutes"),
        Arguments.of("0 2 * * *", -5, "UTC", "durationMinutes"),
        Arguments.of("0 2 * * *", 7 * 24 * 60 + 1, "UTC", "durationMinutes"));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("badWindows")
  void rejectsABadWindowNamingTheField(String cron, int minutes, String zone, String field) {
    assertThatThrownBy(() -> MaintenanceWindow.of("w", "", cron, minutes, zone))
        .isInstanceOfSatisfying(
            CalendarInputException.class, e -> assertThat(e.field()).isEqualTo(field))
        .hasMessageStartingWith(field + ": ");
  }

  @Test
  void acceptsTheLongestWindow() {
    assertThat(window("0 2 * * 1", 7 * 24 * 60, "Asia/Kolkata").duration().toDays()).isEqualTo(7);
  }

  @Test
  void rejectsABadSelectorOrFreezeNamingTheField() {
    assertThatThrownBy(() -> MaintenanceWindow.of("w", "region in (", "0 2 * * *", 60, "UTC"))
        .isInstanceOfSatisfying(
            CalendarInputException.class, e -> assertThat(e.field()).isEqualTo("selector"));
    assertThatThrownBy(() -> freeze("2026-06-10T02:00:00Z", "2026-06-10T02:00:00Z", ""))
        .isInstanceOfSatisfying(
            CalendarInputException.class, e -> assertThat(e.field()).isEqualTo("end"));
  }

  @Test
  void windowsBackToBackAreChainedOnlyAsFarAsTheCallerNeeds() {
    // a 5-minute window every 5 minutes never closes: chained to the horizon it cost 13 s (red-team
    // pass, stop 20)
    MaintenanceCalendar always = calendar(window("*/5 * * * *", 5, "UTC"));
    Instant t = Instant.parse("2026-03-10T10:02:00Z");
    Instant until = Instant.parse("2026-03-10T11:00:00Z");
    assertThat(always.nextClosing(EU, t, until))
        .hasValueSatisfying(
            c -> assertThat(c).isAfterOrEqualTo(until).isBeforeOrEqualTo(until.plusSeconds(300)));
    // a window that really closes before the bound is answered exactly, as without one
    MaintenanceCalendar night = calendar(window("0 1 * * *", 60, "UTC"));
    assertThat(
            night.nextClosing(EU, Instant.parse("2026-03-10T01:30:00Z"), until.plusSeconds(86_400)))
        .isEqualTo(night.nextClosing(EU, Instant.parse("2026-03-10T01:30:00Z")))
        .contains(Instant.parse("2026-03-10T02:00:00Z"));
  }
}
