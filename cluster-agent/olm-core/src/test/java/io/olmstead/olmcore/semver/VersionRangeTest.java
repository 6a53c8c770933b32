package io.olmstead.olmcore.semver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Re-creates blang/semver v4 range_test.go tables and the OLM-SEMANTICS §3 range rules. */
class VersionRangeTest {

  /** blang TestParseRange: range -> (version -> expected). */
  static Stream<Arguments> blangParseRangeTable() {
    return Stream.of(
        // simple expressions
        Arguments.of(">1.2.3", Map.of("1.2.2", false, "1.2.3", false, "1.2.4", true)),
        Arguments.of(">=1.2.3", Map.of("1.2.3", true, "1.2.4", true, "1.2.2", false)),
        Arguments.of("<1.2.3", Map.of("1.2.2", true, "1.2.3", false, "1.2.4", false)),
        Arguments.of("<=1.2.3", Map.of("1.2.2", true, "1.2.3", true, "1.2.4", false)),
        Arguments.of("1.2.3", Map.of("1.2.2", false, "1.2.3", true, "1.2.4", false)),
        Arguments.of("=1.2.3", Map.of("1.2.2", false, "1.2.3", true, "1.2.4", false)),
        Arguments.of("==1.2.3", Map.of("1.2.2", false, "1.2.3", true, "1.2.4", false)),
        Arguments.of("!=1.2.3", Map.of("1.2.2", true, "1.2.3", false, "1.2.4", true)),
        Arguments.of("!1.2.3", Map.of("1.2.2", true, "1.2.3", false, "1.2.4", true)),
        // AND expressions
        Arguments.of(">1.2.2 <1.2.4", Map.of("1.2.2", false, "1.2.3", true, "1.2.4", false)),
        Arguments.of(
            "<1.2.2 <1.2.4", Map.of("1.2.1", true, "1.2.2", false, "1.2.3", false, "1.2.4", false)),
        Arguments.of(
            ">1.2.2 <1.2.5 !=1.2.4",
            Map.of("1.2.2", false, "1.2.3", true, "1.2.4", false, "1.2.5", false)),
        Arguments.of(
            ">1.2.2 <1.2.5 !1.2.4",
            Map.of("1.2.2", false, "1.2.3", true, "1.2.4", false, "1.2.5", false)),
        // OR expressions
        Arguments.of(">1.2.2 || <1.2.4", Map.of("1.2.2", true, "1.2.3", true, "1.2.4", true)),
        Arguments.of("<1.2.2 || >1.2.4", Map.of("1.2.2", false, "1.2.3", false, "1.2.4", false)),
        // wildcard expressions
        Arguments.of(">1.x", Map.of("0.1.9", false, "1.2.6", false, "1.9.0", false, "2.0.0", true)),
        Arguments.of(">1.2.x", Map.of("1.1.9", false, "1.2.6", false, "1.3.0", true)),
        // combined expressions
        Arguments.of(
            ">1.2.2 <1.2.4 || >=2.0.0",
            Map.of("1.2.2", false, "1.2.3", true, "1.2.4", false, "2.0.0", true, "2.0.1", true)),
        Arguments.of(
            "1.x || >=2.0.x <2.2.x",
            Map.of("0.9.2", false, "1.2.2", true, "2.0.0", true, "2.1.8", true, "2.2.0", false)),
        Arguments.of(
            ">1.2.2 <1.2.4 || >=2.0.0 <3.0.0",
            Map.of(
                "1.2.2", false, "1.2.3", true, "1.2.4", false, "2.0.0", true, "2.0.1", true,
                "2.9.9", true, "3.0.0", false)),
        // OLM-SEMANTICS §3: pre-releases compare normally, build metadata is ignored
        Arguments.of("<1.0.3", Map.of("1.0.3-rc.1", true, "1.0.3", false, "1.0.2+build", true)),
        Arguments.of("=1.0.0", Map.of("1.0.0+build.7", true, "1.0.0-rc.1", false)),
        Arguments.of(
            ">=0.2.0-0 <0.3.1-0",
            Map.of(
                "0.2.0-alpha",
                true,
                "0.2.0",
                true,
                "0.3.0",
                true,
                "0.3.1-rc.1",
                false,
                "0.1.9",
                false)),
        // OLM step_resolver SkipRangeNotInHead: the head's range excludes the installed 0.0.0
        Arguments.of("< 1.0.0 !0.0.0", Map.of("0.0.0", false, "0.0.1", true, "1.0.0", false)),
        // spaces between operator and version, as in real catalogs
        Arguments.of(
            "  >=   1.2.3   <=  1.2.5   ", Map.of("1.2.2", false, "1.2.4", true, "1.2.6", false)),
        Arguments.of(
            ">=2.1.x <2.2.1", Map.of("2.0.9", false, "2.1.0", true, "2.2.0", true, "2.2.1", false)),
        // X and * spell the same wildcard as x
        Arguments.of("1.X", Map.of("0.9.9", false, "1.0.0", true, "1.9.9", true, "2.0.0", false)),
        Arguments.of("<=1.2.*", Map.of("1.2.9", true, "1.3.0", false)),
        Arguments.of(">=1.0.0-rc.X", Map.of("1.0.0-rc.X", true, "1.0.0-rc.W", false)),
        // an x inside pre-release or build metadata is not a wildcard
        Arguments.of(">=1.0.0-rc.x86", Map.of("1.0.0-rc.x86", true, "1.0.0-rc.x85", false)),
        Arguments.of("=1.0.0+b1.x-y", Map.of("1.0.0", true)),
        // blang quirks kept for identical upgrade edges: "!=" on a wildcard ANDs disjoint bounds,
        // and "1.x.x" is typed by its last position like "1.0.x"
        Arguments.of("!=1.2.x", Map.of("1.1.0", false, "1.2.5", false, "1.3.0", false)),
        Arguments.of("1.x.x", Map.of("1.0.9", true, "1.1.0", false)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("blangParseRangeTable")
  void matchesVersionsLikeBlang(String range, Map<String, Boolean> expectations)
      throws VersionException {
    VersionRange r = VersionRange.parse(range);
    expectations.forEach(
        (version, expected) ->
            assertThat(r.contains(Version.tryParse(version).orElseThrow()))
                .as("%s contains %s", range, version)
                .isEqualTo(expected));
    assertThat(r.toString()).isEqualTo(range);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        ">>1.2.3",
        "1.0",
        "string",
        "",
        "   ",
        "fo.ob.ar.x",
        "<==1.2.3",
        "<<1.2.3",
        "-1.2.3",
        "^1.0",
        "^1.2.3",
        "~1.2.3",
        "~>1.2.3",
        "^1.x",
        "~1.2.x",
        "1.0.0 - 2.0.0",
        "v1.0.0",
        "<v1.17.0",
        "01.0.0",
        ">=1.01.0",
        "<=01.x",
        ">01.2.x",
        "1.0.0-01",
        ">1.0.0 ||",
        "|| >1.0.0",
        ">1.0.0 || || <0.5.0",
        "||",
        "x",
        "*",
        "X",
        "1.2.x-rc",
        "!1.x.3",
        ">=1.2.3 <",
        "! 1.0.0",
        ">1.0.0||<0.5.0",
        ">=1.2.3,<2.0.0",
        "1.0.0 2",
        "1.2.3\t"
      })
  void rejectsInvalidRanges(String range) {
    assertThatThrownBy(() -> VersionRange.parse(range))
        .isInstanceOf(VersionException.class)
        .hasMessageStartingWith("Could not parse Range");
  }

  @ParameterizedTest
  @CsvSource(
      delimiterString = " -> ",
      value = {
        "^1.0 -> Could not parse Range \"^1.0\": Could not parse comparator \"^\" in \"^1.0\" (caret and tilde ranges are not supported)",
        "~1.2.3 -> Could not parse Range \"~1.2.3\": Could not parse comparator \"~\" in \"~1.2.3\" (caret and tilde ranges are not supported)",
        "<v1.17.0 -> Could not parse Range \"<v1.17.0\": Could not parse comparator \"<v\" in \"<v1.17.0\" (a leading \"v\" is not allowed)",
        "1.0.0 - 2.0.0 -> Could not parse Range \"-\": hyphen ranges are not supported",
        ">=01.0.0 -> Could not parse Range \">=01.0.0\": Could not parse version \"01.0.0\" in \">=01.0.0\": Major number must not contain leading zeroes \"01\"",
        "1.0 -> Could not parse Range \"1.0\": Could not parse version \"1.0\" in \"1.0\": No Major.Minor.Patch elements found",
        "string -> Could not parse Range \"string\": Could not get version from string: \"string\"",
        ">1.0.0 || -> Could not parse Range \">1.0.0 ||\": Last element in range is '||'",
      })
  void explainsWhyARangeIsRejected(String range, String message) {
    assertThatThrownBy(() -> VersionRange.parse(range)).hasMessage(message);
  }

  @Test
  void rejectsNullWithoutAnUncheckedException() {
    assertThatThrownBy(() -> VersionRange.parse(null)).isInstanceOf(VersionException.class);
  }

  /** blang TestExpandWildcardVersion, plus the quirks that follow from its string rewriting. */
  @ParameterizedTest
  @CsvSource(
      delimiterString = " -> ",
      value = {
        ">=1.2.x -> >=1.2.0",
        "<=1.2.x -> <1.3.0",
        ">1.2.x -> >=1.3.0",
        "<1.2.x -> <1.2.0",
        "!=1.2.x -> <1.2.0 >=1.3.0",
        ">=1.x -> >=1.0.0",
        "<=1.x -> <2.0.0",
        ">1.x -> >=2.0.0",
        "<1.x -> <1.0.0",
        "!=1.x -> <1.0.0 >=2.0.0",
        "!1.x -> <1.0.0 >=2.0.0",
        "1.2.x -> >=1.2.0 <1.3.0",
        "1.x -> >=1.0.0 <2.0.0",
        "==1.x -> >=1.0.0 <2.0.0",
        "=1.2.x -> >=1.2.0 <1.3.0",
        "1.x.x -> >=1.0.0 <1.1.0",
        ">=1.x.3 -> >=1.0.3",
        "1.x || >=2.0.x <2.2.x -> >=1.0.0 <2.0.0 || >=2.0.0 <2.2.0",
        "1.2.X -> >=1.2.0 <1.3.0",
        "1.* -> >=1.0.0 <2.0.0",
        ">= 1.2.3 <= 1.2.4 -> >=1.2.3 <=1.2.4",
        "!=1.2.3 -> !=1.2.3",
      })
  void expandsWildcardsLikeBlang(String range, String expanded) throws VersionException {
    assertThat(VersionRange.parse(range).expandedForm()).isEqualTo(expanded);
  }

  /** blang TestSplitAndTrim. */
  @ParameterizedTest
  @MethodSource("splitAndTrimTable")
  void splitsOnSpacesButNotAfterAnOperator(String input, List<String> tokens) {
    assertThat(VersionRange.tokenize(input)).isEqualTo(tokens);
  }

  static Stream<Arguments> splitAndTrimTable() {
    return Stream.of(
        Arguments.of("1.2.3 1.2.3", List.of("1.2.3", "1.2.3")),
        Arguments.of("     1.2.3     1.2.3     ", List.of("1.2.3", "1.2.3")),
        Arguments.of("  >=   1.2.3   <=  1.2.3   ", List.of(">=1.2.3", "<=1.2.3")),
        Arguments.of("1.2.3 || >=1.2.3 <1.2.3", List.of("1.2.3", "||", ">=1.2.3", "<1.2.3")),
        Arguments.of(
            "      1.2.3      ||     >=1.2.3     <1.2.3    ",
            List.of("1.2.3", "||", ">=1.2.3", "<1.2.3")));
  }

  /**
   * blang TestParseComparator / TestBuildVersionRange: each operator tested against 1.2.2 < 1.2.3 <
   * 1.2.4.
   */
  @ParameterizedTest
  @CsvSource({
    ">,  false, false, true",
    ">=, false, true,  true",
    "<,  true,  false, false",
    "<=, true,  true,  false",
    "'', false, true,  false",
    "=,  false, true,  false",
    "==, false, true,  false",
    "!=, true,  false, true",
    "!,  true,  false, true",
  })
  void appliesEachComparator(String op, boolean below, boolean equal, boolean above)
      throws VersionException {
    VersionRange r = VersionRange.parse(op + "1.2.3");
    assertThat(r.contains(Version.parse("1.2.2"))).isEqualTo(below);
    assertThat(r.contains(Version.parse("1.2.3"))).isEqualTo(equal);
    assertThat(r.contains(Version.parse("1.2.4"))).isEqualTo(above);
  }

  @Test
  void containsNothingForNull() throws VersionException {
    assertThat(VersionRange.parse(">=0.0.0").contains(null)).isFalse();
  }

  @Test
  void rangesWithTheSameTextAreEqual() throws VersionException {
    assertThat(VersionRange.parse(">=1.0.0 <2.0.0"))
        .isEqualTo(VersionRange.parse(">=1.0.0 <2.0.0"))
        .hasSameHashCodeAs(VersionRange.parse(">=1.0.0 <2.0.0"));
  }
}
