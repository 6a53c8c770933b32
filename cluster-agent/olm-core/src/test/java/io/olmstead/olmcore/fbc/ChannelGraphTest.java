package io.olmstead.olmcore.fbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.semver.Version;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Re-creates operator-registry alpha/model/model_test.go (TestChannelHead, TestValidReplacesChain)
 * and the §3 choice rules.
 */
class ChannelGraphTest {

  static ChannelEntry e(String name, String replaces, String... skips) {
    return new ChannelEntry(name, replaces, Arrays.asList(skips), null);
  }

  static ChannelEntry ranged(String name, String replaces, String skipRange) {
    return new ChannelEntry(name, replaces, List.of(), skipRange);
  }

  static ChannelGraph graph(ChannelEntry... entries) {
    Map<String, Version> versions = new HashMap<>();
    for (ChannelEntry en : entries) {
      versions.put(
          en.name(),
          Version.tryParse(en.name().substring(en.name().indexOf(".v") + 2)).orElseThrow());
    }
    return ChannelGraph.of(new Channel("anakin", "light", List.of(entries)), versions);
  }

  static Stream<Arguments> upstreamCases() {
    ChannelEntry head = e("anakin.v0.0.3", "anakin.v0.0.1", "anakin.v0.0.2");
    return Stream.of(
        Arguments.of(
            "Head/Success/Valid",
            List.of(e("anakin.v0.0.1", null), e("anakin.v0.0.2", null), head),
            "anakin.v0.0.3",
            null),
        Arguments.of(
            "Head/Error/NoChannelHead",
            List.of(e("anakin.v0.0.1", "anakin.v0.0.3"), head),
            null,
            "no channel head found in graph"),
        Arguments.of(
            "Head/Error/MultipleChannelHeads",
            List.of(e("anakin.v0.0.1", null), head, e("anakin.v0.0.4", "anakin.v0.0.1")),
            null,
            "multiple channel heads found in graph: anakin.v0.0.3, anakin.v0.0.4"),
        Arguments.of(
            "ReplacesChain/Success/Valid",
            List.of(
                e("anakin.v0.0.1", null),
                e("anakin.v0.0.2", null, "anakin.v0.0.1"),
                e("anakin.v0.0.3", null, "anakin.v0.0.2"),
                e("anakin.v0.0.4", "anakin.v0.0.3")),
            "anakin.v0.0.4",
            null),
        Arguments.of(
            "ReplacesChain/Error/CycleNoHops",
            List.of(e("anakin.v0.0.4", "anakin.v0.0.4"), e("anakin.v0.0.5", "anakin.v0.0.4")),
            "anakin.v0.0.5",
            "detected cycle in replaces chain of upgrade graph: anakin.v0.0.4 -> anakin.v0.0.4"),
        Arguments.of(
            "ReplacesChain/Error/CycleMultipleHops",
            List.of(
                e("anakin.v0.0.1", "anakin.v0.0.3"),
                e("anakin.v0.0.2", "anakin.v0.0.1"),
                e("anakin.v0.0.3", "anakin.v0.0.2"),
                e("anakin.v0.0.4", "anakin.v0.0.3")),
            "anakin.v0.0.4",
            "detected cycle in replaces chain of upgrade graph: "
                + "anakin.v0.0.3 -> anakin.v0.0.2 -> anakin.v0.0.1 -> anakin.v0.0.3"),
        Arguments.of(
            "ReplacesChain/Error/Stranded",
            List.of(
                e("anakin.v0.0.1", null),
                e("anakin.v0.0.2", "anakin.v0.0.1"),
                e("anakin.v0.0.3", null, "anakin.v0.0.2")),
            "anakin.v0.0.3",
            "channel contains one or more stranded bundles: anakin.v0.0.1"),
        // the walk ends at a replaces edge whose target is skipped: what lies behind it is stranded
        Arguments.of(
            "ReplacesChain/Error/SkippedReplacesStranded",
            List.of(
                e("anakin.v0.0.1", null),
                e("anakin.v0.0.2", "anakin.v0.0.1"),
                e("anakin.v0.0.3", "anakin.v0.0.2", "anakin.v0.0.2")),
            "anakin.v0.0.3",
            "channel contains one or more stranded bundles: anakin.v0.0.1"),
        Arguments.of(
            "ReplacesChain/Success/SkippedReplacesWithSkippedTail",
            List.of(
                e("anakin.v0.0.1", null),
                e("anakin.v0.0.2", "anakin.v0.0.1"),
                e("anakin.v0.0.3", "anakin.v0.0.2", "anakin.v0.0.1", "anakin.v0.0.2")),
            "anakin.v0.0.3",
            null),
        Arguments.of(
            "ReplacesChain/Success/ReplacesNotInChannel",
            List.of(e("anakin.v0.1.0", "anakin.v0.0.0"), e("anakin.v0.2.0", "anakin.v0.1.0")),
            "anakin.v0.2.0",
            null),
        // skipRange edges do not count as incoming edges for head detection
        Arguments.of(
            "Head/Error/SkipRangeDoesNotHideAHead",
            List.of(e("anakin.v0.0.1", null), ranged("anakin.v0.0.2", null, "<0.0.2")),
            null,
            "multiple channel heads found in graph: anakin.v0.0.1, anakin.v0.0.2"),
        Arguments.of(
            "Channel/Error/NoBundles",
            List.of(),
            null,
            "channel must contain at least one bundle"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamCases")
  void findsHeadAndReportsUpstreamErrors(
      String name, List<ChannelEntry> entries, String head, String error) {
    ChannelGraph g = graph(entries.toArray(ChannelEntry[]::new));

    assertThat(g.head().orElse(null)).isEqualTo(head);
    if (error == null) {
      assertThat(g.errors()).isEmpty();
    } else {
      assertThat(g.errors()).containsExactly(error);
    }
  }

  @Test
  void candidateOrderFollowsReplacesFromHeadAndDropsSkippedEntries() {
    ChannelGraph g =
        graph(
            e("a.v1.0.0", null),
            e("a.v1.1.0", "a.v1.0.0"),
            e("a.v1.2.0", "a.v1.1.0"),
            e("a.v1.3.0", "a.v1.2.0", "a.v1.1.0"));

    assertThat(g.candidatesInOrder())
        .extracting(ChannelEntry::name)
        .containsExactly("a.v1.3.0", "a.v1.2.0", "a.v1.0.0");
  }

  @Test
  void nextPrefersTheQualifyingCandidateNearestTheHead() {
    ChannelGraph g =
        graph(
            e("a.v1.0.0", null),
            e("a.v1.1.0", "a.v1.0.0"),
            new ChannelEntry("a.v1.2.0", "a.v1.1.0", List.of(), ">=1.0.0 <1.2.0"));

    assertThat(g.successorsOf("a.v1.0.0", Version.tryParse("1.0.0").orElseThrow(), null))
        .extracting(ChannelEntry::name)
        .containsExactly("a.v1.2.0", "a.v1.1.0");
    assertThat(g.next("a.v1.0.0", Version.tryParse("1.0.0").orElseThrow(), null))
        .get()
        .extracting(ChannelEntry::name)
        .isEqualTo("a.v1.2.0");
  }

  @Test
  void nextIgnoresCandidatesAboveTheCeiling() {
    ChannelGraph g =
        graph(
            e("a.v1.0.0", null),
            e("a.v1.1.0", "a.v1.0.0"),
            new ChannelEntry("a.v1.2.0", "a.v1.1.0", List.of(), ">=1.0.0 <1.2.0"));

    assertThat(g.next("a.v1.0.0", v("1.0.0"), v("1.1.0")))
        .get()
        .extracting(ChannelEntry::name)
        .isEqualTo("a.v1.1.0");
    assertThat(g.next("a.v1.0.0", v("1.0.0"), v("1.0.5"))).isEmpty();
  }

  @Test
  void skipRangeNotInHeadChoosesTheNextEntry() {
    // step_resolver_test InstalledSub/UpdatesAvailable/SkipRangeNotInHead
    ChannelGraph g =
        graph(
            e("a.v0.0.0", null),
            e("a.v0.0.1", "a.v0.0.0"),
            new ChannelEntry("a.v0.0.2", "a.v0.0.1", List.of(), "< 1.0.0 !0.0.0"));

    assertThat(g.next("a.v0.0.0", v("0.0.0"), null))
        .get()
        .extracting(ChannelEntry::name)
        .isEqualTo("a.v0.0.1");
    assertThat(g.next("a.v0.0.1", v("0.0.1"), null))
        .get()
        .extracting(ChannelEntry::name)
        .isEqualTo("a.v0.0.2");
  }

  @Test
  void skippedEntriesAreNeverCandidatesEvenWhenTheyReplaceTheInstalledBundle() {
    ChannelGraph g =
        graph(
            e("a.v1.0.0", null), e("a.v1.1.0", "a.v1.0.0"), e("a.v1.2.0", "a.v1.1.0", "a.v1.1.0"));

    assertThat(g.successorsOf("a.v1.0.0", v("1.0.0"), null)).isEmpty();
    assertThat(g.next("a.v1.1.0", v("1.1.0"), null))
        .get()
        .extracting(ChannelEntry::name)
        .isEqualTo("a.v1.2.0");
  }

  @Test
  void upgradePathIsTheChainOfSingleSteps() {
    ChannelGraph g =
        graph(
            e("a.v1.0.0", null),
            e("a.v1.1.0", "a.v1.0.0"),
            e("a.v1.2.0", "a.v1.1.0"),
            ranged("a.v1.3.0", "a.v1.2.0", ">=1.2.0 <1.3.0"),
            e("a.v2.0.0", "a.v1.3.0"));

    assertThat(g.upgradePath("a.v1.0.0", null))
        .extracting(ChannelEntry::name)
        .containsExactly("a.v1.1.0", "a.v1.2.0", "a.v1.3.0", "a.v2.0.0");
    assertThat(g.upgradePath("a.v1.0.0", v("1.99.0")))
        .extracting(ChannelEntry::name)
        .containsExactly("a.v1.1.0", "a.v1.2.0", "a.v1.3.0");
    assertThat(g.upgradePath("a.v2.0.0", null)).isEmpty();
  }

  @Test
  void headHasNoSuccessorsAndAnInvalidGraphHasNoCandidates() {
    ChannelGraph valid = graph(e("a.v1.0.0", null), e("a.v1.1.0", "a.v1.0.0"));
    ChannelGraph twoHeads = graph(e("a.v1.0.0", null), e("a.v1.1.0", null));

    assertThat(valid.next("a.v1.1.0", v("1.1.0"), null)).isEmpty();
    assertThat(twoHeads.candidatesInOrder()).isEmpty();
    assertThat(twoHeads.next("a.v1.0.0", v("1.0.0"), null)).isEmpty();
  }

  private static Version v(String s) {
    return Version.tryParse(s).orElseThrow();
  }
}
